"""This module runs a worker process's main function the way every bench worker ends.

A worker reads requests on stdin and writes answers on stdout for the
parent that started it. It uses the standard library alone, so that the
A/B and instruction workers beside it can import it as a top-level module,
as they import ``named_search``.
"""

import os
import signal
import sys


def run_worker(main):
    """Run a worker's ``main()``, leaving Ctrl-C and a closed pipe to the parent.

    Ctrl-C is the parent's to handle: the parent closes this worker's input
    (or kills it), and the worker ends there without a traceback of its own.
    When the parent is gone, nobody reads the answer, so a closed stdout
    ends the worker quietly.

    Parameters
    ----------
    main : callable
        The worker's loop, called with no arguments.

    Examples
    --------
    >>> run_worker(lambda: None)
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
