"""How a command ends: the exit statuses and the argument parser whose
errors are one line, shared by the ``knight`` command and the harness's
``python -m bench`` commands, so that both keep the same promise.

Bad input ends in one line on stderr and ``EXIT_USAGE``, before any work
starts; an interrupt ends in ``EXIT_INTERRUPTED`` (128 + SIGINT, as a
shell reports it).
"""

import argparse

from knight.errors import InvalidArgument

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors raise ``InvalidArgument`` (the
    caller prints it as one line) instead of printing the usage block."""

    def error(self, message):
        # argparse prints the whole usage block; one line is what we promise
        raise InvalidArgument(f"{message} (see '{self.prog} --help')")
