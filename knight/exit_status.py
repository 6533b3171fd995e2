"""This module says how a command of this project ends.

It holds the exit statuses and the argument parser whose errors are one
line. It is also the one place that turns every failure a command can
anticipate into one line on stderr.

``knight`` and ``python -m bench`` both parse with ``OneLineParser`` and
end through ``run_command``, so a bad option, a full disk, a closed pipe or
a Ctrl-C reads the same from either.

=====  ==================================================================
  0    done
  2    refused: an argument, or a file named by one, is wrong; or the work
       cannot fit (memory, disk) and was not started
 74    a file or stream could not be read or written while working
       (a full disk, a file made read-only), or the Dask cluster of a
       count was lost while working (its workers or its scheduler gone,
       ``counting.cluster.cluster_faults``); what finished is kept
129    hung up (SIGHUP: the terminal was closed); what finished is kept
130    interrupted (Ctrl-C); what finished is kept
141    standard output was closed by its reader (``| head``): quietly,
       as a program killed by SIGPIPE
143    terminated (SIGTERM); what finished is kept
=====  ==================================================================

No stream is assumed: a command started with standard error closed
(``2>&-``) writes its messages to a null sink, never to standard output,
and one started with standard output closed ends in exit status 74.
"""

import argparse
import contextlib
import errno
import functools
import io
import os
import signal
import sys
import threading

from knight.errors import InvalidArgument
from knight.runtime import machine
from knight.validate import one_line

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_IO = 74  # sysexits.h's EX_IOERR
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_PIPE = 128 + signal.SIGPIPE
EXIT_TERMINATED = 128 + signal.SIGTERM
EXIT_HUNG_UP = 128 + signal.SIGHUP
# the signals that end a command as SIGTERM does, and what it says for each
_ENDING_SIGNALS = {signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors raise ``InvalidArgument`` (printed
    as one line) instead of printing the usage block."""

    def error(self, message):
        # argparse prints the whole usage block; one line is what we promise
        raise InvalidArgument(f"{message} (see '{self.prog} --help')")

    def parse_known_args(self, args=None, namespace=None):
        """As argparse's, but an option given an empty (or blank) value is
        refused: read as "not given", it silently ran the default
        (``bench --sizes ''`` the default sweep, ``--out ''`` the current
        folder). Subcommands' parsers are of this class too."""
        namespace, extras = super().parse_known_args(args, namespace)
        for action in self._actions:
            value = getattr(namespace, action.dest, None)
            if action.option_strings and isinstance(value, str) and not value.strip():
                self.error(f"{action.option_strings[0]} needs a value, got {value!r}")
        return namespace, extras

    def _get_values(self, action, arg_strings):
        # the argparse of Python 3.11 drops a "--" given as an option's own
        # value (--memory=--) and hands the option an empty list, which no
        # check of a text expects (a traceback); the value is the text
        # given, refused by the option's own check in one line
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)


class Terminated(BaseException):
    """SIGTERM or SIGHUP (``signum``), raised where the process is so that
    ``finally`` blocks (the removal of temporaries, a spill folder, a
    lock) run, as they do for Ctrl-C."""

    def __init__(self, signum=signal.SIGTERM):
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum, frame):
    raise Terminated(signum)


def _chain(error):
    """``error`` and every exception it was raised from or during."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def stopped_by_signal(error):
    """Whether ``error`` is, or was caused by, Ctrl-C or SIGTERM."""
    return _signal_behind(error) is not None


def _signal_behind(error):
    """The interrupt that a compiled call turned into another error.

    A signal that arrives while a Numba-compiled function runs is raised
    when that function returns, and CPython reports it as ``SystemError:
    ... returned a result with an exception set`` with the interrupt as its
    cause: the cause is what happened."""
    for link in _chain(error):
        if isinstance(link, KeyboardInterrupt | Terminated):
            return link
    return None


def _say(prog, text):
    # stderr itself may be closed or full: the exit status still tells
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: {one_line(text)}", file=sys.stderr, flush=True)


def _silence_stdout():
    """Point stdout at /dev/null, so that the flush at exit does not raise
    BrokenPipeError again (the recipe of Python's signal documentation)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@contextlib.contextmanager
def naming(path):
    """An OSError of a write to ``path`` (a full disk) raised naming it: the
    error of a file object's write names no file, and the one line that
    ends the command should say where the disk filled."""
    try:
        yield
    except OSError as error:
        if error.filename is not None or error.errno == errno.ENOMEM:
            raise  # named already, or memory refused: nothing of the path's
        raise OSError(error.errno, error.strerror, os.fspath(path)) from None


def describe_os_error(error):
    """``cannot write FILE: No space left on device``, naming the file where
    the error knows it, the output otherwise."""
    reason = error.strerror or str(error) or type(error).__name__
    where = error.filename if error.filename is not None else "standard output"
    return f"{where}: {reason}"


def _ending(prog, error):
    """The exit status for ``error``, after saying what happened."""
    behind = _signal_behind(error)
    if isinstance(behind, Terminated):
        _say(prog, _ENDING_SIGNALS.get(behind.signum, "terminated"))
        return 128 + behind.signum
    if behind is not None:
        forget_python_interrupt()
        _say(prog, "interrupted")
        return EXIT_INTERRUPTED
    if isinstance(error, InvalidArgument):
        _say(prog, f"error: {error}")
        return EXIT_USAGE
    if isinstance(error, BrokenPipeError):
        _silence_stdout()
        return EXIT_PIPE
    if isinstance(error, MemoryError):
        _say(prog, "error: out of memory: this process's memory limit was reached (see 'ulimit -v' and its cgroup)")
        return EXIT_USAGE
    if isinstance(error, OSError) and error.errno == errno.ENOMEM:
        # a mapping the kernel refused (mmap's ENOMEM): no file is to blame
        _say(
            prog,
            "error: out of memory: the system refused this process a mapping "
            "(see 'ulimit -v', its cgroup and vm.overcommit_memory)",
        )
        return EXIT_USAGE
    if isinstance(error, OSError):
        _say(prog, f"error: {describe_os_error(error)}")
        return EXIT_IO
    return None


def forget_python_interrupt():
    """Clear CPython's own note of an unhandled Ctrl-C, once knight has
    handled it.

    An interrupt that lands as code run by ``exec`` of a string begins (the
    methods a dataclass builds while knight's modules import) is noted by
    the interpreter as unhandled even when it is caught, and the process
    then ends killed by SIGINT (status -2) instead of with knight's 130,
    after knight has said "interrupted" (6 runs in 100 of ``knight count 6 6
    --method dp`` interrupted 0.25-0.35 s in, CPython 3.11). Every string
    that ``exec`` runs starts by clearing that note, so an empty one clears it."""
    exec("")


def check_environment(prog):
    """End the process in one line and exit status 2 if the environment
    holds a setting Numba fails on (``machine.check_numba_threads``): for a
    command whose modules import Numba before ``run_command`` runs (the
    harness's). ``run_command`` checks the same for the rest."""
    try:
        machine.check_numba_threads()
    except InvalidArgument as error:
        _say(prog, f"error: {error}")
        raise SystemExit(EXIT_USAGE) from None


class _ClosedOutput(io.TextIOBase):
    """Standard output of a process started without one (``>&-``): a
    write fails as a write to a closed descriptor does, so the command
    ends in one line and exit status 74 rather than printing into nothing."""

    def writable(self):
        return True

    def write(self, text):
        raise OSError(errno.EBADF, "it was closed before the command started")


def _fill_closed_descriptors():
    """Open the null device on each of descriptors 0-2 that is closed: a
    file the command opens must not take the number of a standard stream,
    where C code (Numba's, NumPy's) would write its messages into it."""
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)


def ensure_streams():
    """Give the process every standard stream it lacks, once, before the
    command runs: a null sink for a closed standard error (its messages
    are then lost; the exit status still tells), ``_ClosedOutput`` for a
    closed standard output. Without them, ``print(file=sys.stderr)``
    printed to standard output, into ``--json``'s record, and
    ``sys.stderr.isatty()`` was an AttributeError.

    Examples
    --------
    >>> ensure_streams()
    """
    _fill_closed_descriptors()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (it lives as long as the process)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()


def signals_raised_as_such(function):
    """``function``, made to raise a Ctrl-C or SIGTERM that a compiled call
    turned into another error (a ``SystemError`` of Numba's dispatcher) as
    itself: for the Python API, whose caller catches KeyboardInterrupt.

    Examples
    --------
    >>> @signals_raised_as_such
    ... def count():
    ...     return 1
    >>> count()
    1
    """

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except Exception as error:
            behind = _signal_behind(error)
            if behind is None:
                raise
            raise behind.with_traceback(None) from None

    return wrapper


# what run_command calls as every command ends, however it ends
_clean_ups = []


def at_command_end(clean_up):
    """Have ``run_command`` call ``clean_up()`` as each command ends, after
    its work, however it ended: for what a signal can leave behind between
    a thing's making and its owner's note of it (a spill folder).

    Examples
    --------
    >>> at_command_end(lambda: None)
    """
    if clean_up not in _clean_ups:
        _clean_ups.append(clean_up)


def run_command(prog, body):
    """``body()``'s exit status, or the status of the failure it ended in.

    Anything not anticipated here (a bug) keeps its traceback: hiding one
    would hide the bug."""
    ensure_streams()
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _raise_terminated) if in_main else None
    previous_hup = signal.signal(signal.SIGHUP, _raise_terminated) if in_main else None
    interrupted = []
    previous_int = signal.signal(signal.SIGINT, _recording(interrupted)) if in_main else None
    swallowed, unraisable_hook, excepthook = [], sys.unraisablehook, sys.excepthook
    sys.unraisablehook = _keeping_signals(swallowed, unraisable_hook)
    sys.excepthook = _keeping_printed_signals(swallowed, excepthook)
    try:
        try:
            # before anything imports Numba, which reads it at import
            machine.check_numba_threads()
            status = body()
        finally:
            # the streams are flushed here, inside the handlers below, not at
            # exit where a closed pipe or a full disk could only be ignored
            sys.stdout.flush()
        if swallowed:  # the work went on past a Ctrl-C: it still ends as one
            return _ending(prog, swallowed[0])
        return status
    except (KeyboardInterrupt, Terminated, InvalidArgument, MemoryError, OSError, SystemError) as error:
        status = _ending(prog, swallowed[0] if swallowed else error)
        if status is None:
            raise
        return status
    except Exception:
        # a Ctrl-C swallowed in a callback leaves what it landed in half
        # done (Numba then fails with "no compiled object yet"), and one
        # that lands in a C extension's import turns into its ImportError
        # (numpy: 'PyCapsule_Import could not import module "datetime"'):
        # the interrupt is what happened; without one, a bug keeps its traceback
        if not (swallowed or interrupted):
            raise
        return _ending(prog, (swallowed or interrupted)[0])
    finally:
        sys.unraisablehook, sys.excepthook = unraisable_hook, excepthook
        for clean_up in _clean_ups:
            clean_up()
        if in_main:
            signal.signal(signal.SIGTERM, previous)
            signal.signal(signal.SIGHUP, previous_hup)
            signal.signal(signal.SIGINT, previous_int)


def _recording(interrupted):
    """A SIGINT handler that raises KeyboardInterrupt, as Python's own does,
    and keeps it, so that whatever the interrupt turns into on its way up
    is still told as an interrupt."""

    def interrupt(signum, frame):
        interrupted.append(KeyboardInterrupt())
        raise interrupted[-1]

    return interrupt


def _keeping_signals(swallowed, hook):
    """An ``unraisablehook`` that keeps the interrupts Python could not raise.

    A Ctrl-C that lands in a ctypes callback (llvmlite's object-cache hook,
    while Numba compiles a kernel) is printed as "Exception ignored ..."
    with a traceback, and the work goes on as if nothing happened. Kept
    here instead, it ends the command as an interrupt once the work
    returns. Every other unraisable goes to the hook there was."""

    def keep(unraisable):
        if isinstance(unraisable.exc_value, KeyboardInterrupt | Terminated):
            swallowed.append(unraisable.exc_value)
        else:
            hook(unraisable)

    return keep


def _keeping_printed_signals(swallowed, hook):
    """A ``sys.excepthook`` that keeps the interrupts C code printed.

    A Ctrl-C that lands while a C extension initialises (numba's
    ``_dispatcher``, as knight's kernels import Numba) is handed by it to
    ``PyErr_Print``, which calls ``sys.excepthook``: a traceback of the
    signal handler alone on stderr, then the import goes on or fails
    (1 run in 100 of ``knight count 6 6 --method dp`` interrupted at random
    on a loaded machine). Kept here instead, it ends the command as an
    interrupt, as ``_keeping_signals`` keeps one a callback swallowed.
    Anything else goes to the hook there was."""

    def keep(kind, value, traceback):
        if isinstance(value, KeyboardInterrupt | Terminated):
            swallowed.append(value)
        else:
            hook(kind, value, traceback)

    return keep
