"""This module names the temporaries that knight makes and removes those that a killed run left behind.

The names let knight alone take the files for its own. A run killed by
SIGKILL or a power cut leaves its temporaries behind.

Every exit that can run code removes its temporaries itself (``finally``
blocks; SIGTERM is turned into an exception by ``knight.exit_status``).
Only a kill that runs nothing leaves one, and the next run in the same
place removes it. A name carries the process id of its maker: what is
removed is only what matches knight's pattern, belongs to this user, and
was made by a process that no longer exists. A live run's temporaries, and
every file of the user's, are never touched.
"""

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import time

from knight import exit_status
from knight.errors import InvalidArgument

# a spill folder holds this file, so that a folder merely named like one is not taken for one
SPILL_MARK = "knight-dp-spill"
_SPILL = re.compile(r"knight-dp-(\d+)-[A-Za-z0-9_]+")


# the longest file name that Linux's file systems take, in bytes
NAME_MAX = 255
# what mkstemp adds to a temporary's prefix: 8 random characters, then ".tmp"
_MKSTEMP_TAIL = 8 + len(".tmp")
# the longest process id Linux gives (pid_max is at most 2^22)
_PID_DIGITS = 7


def name_bytes(name):
    """The length of file name ``name`` in bytes, as the system counts it
    (a name the OS gave as undecodable bytes included)."""
    return len(os.fsencode(name))


def fitted(name, tail):
    """``name`` followed by ``tail``, cut short and marked by a hash of
    ``name`` where the whole would pass ``NAME_MAX``: the name of a file
    knight keeps beside ``name`` (its lock, its temporaries), the same for
    the same ``name`` on every run, however long ``name`` is.

    Parameters
    ----------
    name : str
        The file's own name (a name the OS gave as bytes included).
    tail : str
        What knight adds to it.

    Returns
    -------
    str
        A name of at most ``NAME_MAX`` bytes.

    Examples
    --------
    >>> fitted(".tour.ckpt", ".knight-lock")
    '.tour.ckpt.knight-lock'
    >>> len(fitted("n" * 250, ".knight-lock"))
    255
    """
    whole = f"{name}{tail}"
    if name_bytes(whole) <= NAME_MAX:
        return whole
    mark = "~" + hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
    room = NAME_MAX - name_bytes(mark + tail)
    kept = name
    while name_bytes(kept) > room:
        kept = kept[:-1]
    return f"{kept}{mark}{tail}"


def temporary_prefix(name):
    """The prefix of a temporary file standing for ``name`` beside it."""
    return _temporary_stem(name) + f"{os.getpid()}-"


def _temporary_stem(name):
    # room is kept for the longest process id, so that every run's
    # temporaries of one name share this stem
    room = "0" * _PID_DIGITS + "-" + "x" * _MKSTEMP_TAIL
    return fitted(f".{name}", ".knight-" + room)[: -len(room)]


def _temporary_pattern(name):
    return re.compile(re.escape(_temporary_stem(name)) + r"(\d+)-[A-Za-z0-9_]+\.tmp")


def _dead(pid):
    """Whether no process ``pid`` exists (one of another user's counts as alive)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):
        return False
    return False


def _ours(path):
    try:
        return os.lstat(path).st_uid == os.getuid()
    except OSError:
        return False


def remove_stale_temporaries(folder, name):
    """Remove the temporaries of ``name`` in ``folder`` that a killed run left."""
    pattern = _temporary_pattern(name)
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            found = pattern.fullmatch(entry.name)
            if found and entry.is_file(follow_symlinks=False) and _ours(entry.path) and _dead(int(found[1])):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


# the spill folders this process made: a signal that lands between a
# folder's making and its owner's note of it would leave it behind, so
# ``remove_spill_folders_made`` removes each as the command ends
_made = set()


def new_spill_folder():
    """A fresh folder in ``$TMPDIR`` for the DP's disk shards, marked as
    knight's (the run that makes it has swept the stale ones already:
    ``remove_stale_spill_folders``)."""
    folder = tempfile.mkdtemp(prefix=f"knight-dp-{os.getpid()}-")
    _made.add(folder)
    _write_mark(folder, SPILL_MARK, "the DP's disk shards of one count; removed when it ends\n")
    return folder


def remove_spill_folders_made():
    """Remove every spill folder this process made that is still there:
    for the end of a command, when no count of its runs any more."""
    while _made:
        folder = _made.pop()
        if os.path.isfile(os.path.join(folder, SPILL_MARK)):
            shutil.rmtree(folder, ignore_errors=True)


# a signal can land after a spill folder is made and before its count
# notes it: as a command ends no count of its runs, so none is in use
exit_status.at_command_end(remove_spill_folders_made)


def spill_bytes(parent=None):
    """Return the bytes that this process's DP spill folders hold on disk.

    Parameters
    ----------
    parent : str or os.PathLike, optional
        The folder that holds the spill folders. None means ``$TMPDIR``, as
        ``tempfile.gettempdir`` gives it.

    Returns
    -------
    int
        The allocated bytes of the files in the spill folders of this process.

    Examples
    --------
    >>> from knight.harness_api import spill_bytes
    >>> spill_bytes() >= 0
    True
    """
    parent = tempfile.gettempdir() if parent is None else parent
    held = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            found = _SPILL.fullmatch(entry.name)
            if found and int(found[1]) == os.getpid() and entry.is_dir(follow_symlinks=False):
                held += _folder_bytes(entry.path)
    return held


def _folder_bytes(folder):
    """The allocated bytes of the files in ``folder`` (0 for one removed meanwhile)."""
    held = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            with contextlib.suppress(OSError):
                held += entry.stat(follow_symlinks=False).st_blocks * 512
    return held


def _write_mark(folder, mark, text):
    """Write ``folder``'s mark file; if that fails (a full disk), remove
    the folder, just made and empty but for the mark, before the error
    goes on: a folder holding only a mark outlives nothing."""
    path = os.path.join(folder, mark)
    try:
        with open(path, "w") as handle:
            handle.write(text)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        with contextlib.suppress(OSError):
            os.rmdir(folder)
        raise


# a count sweeps $TMPDIR for killed runs' spill folders as it starts, but
# a process sweeps one folder at most once a minute: a scan of a full
# $TMPDIR at every run of a per-start count was 2% of a small count's work
# (the speed guard's DP twin)
SWEEP_SECONDS = 60.0
_swept = {}


def sweep_stale_spill_folders(parent=None):
    """``remove_stale_spill_folders``, unless this process swept ``parent``
    in the last ``SWEEP_SECONDS``."""
    parent = tempfile.gettempdir() if parent is None else parent
    now = time.monotonic()
    if now - _swept.get(parent, -SWEEP_SECONDS) >= SWEEP_SECONDS:
        remove_stale_spill_folders(parent)
        _swept[parent] = now


def remove_stale_spill_folders(parent=None):
    """Remove the spill folders in ``parent`` (``$TMPDIR``) of killed runs:
    every DP run calls it as it starts, whether or not it spills itself."""
    parent = tempfile.gettempdir() if parent is None else parent
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            found = _SPILL.fullmatch(entry.name)
            if not found or not entry.is_dir(follow_symlinks=False) or not _ours(entry.path):
                continue
            if os.path.isfile(os.path.join(entry.path, SPILL_MARK)) and _dead(int(found[1])):
                shutil.rmtree(entry.path, ignore_errors=True)


def check_marked_folder(folder, mark, what):
    """InvalidArgument if ``folder`` is there and is not one of knight's:
    a real folder holding the file ``mark`` (``what`` names its kind in the
    refusal: a folder merely named like one stays the user's), or if its
    name is longer than a file name may be (the checkpoint's name is, with
    the folder's suffix)."""
    if name_bytes(os.path.basename(folder)) > NAME_MAX:
        raise InvalidArgument(
            f"the checkpoint keeps {what} named {os.path.basename(folder)[:24]}... beside it, which passes the "
            f"{NAME_MAX} bytes a file name may have: give the checkpoint a shorter name"
        )
    if os.path.lexists(folder) and not (
        os.path.isdir(folder) and not os.path.islink(folder) and os.path.isfile(os.path.join(folder, mark))
    ):
        raise InvalidArgument(
            f"{folder} is there and is not {what} of knight's; it is left untouched: give another checkpoint file"
        )


def make_marked_folder(folder, mark, what, text):
    """``folder``, made with its ``mark`` file (holding ``text``: what the
    folder is for) if it is not there; refused as ``check_marked_folder``
    refuses."""
    check_marked_folder(folder, mark, what)
    if not os.path.isdir(folder):
        os.mkdir(folder)
        _write_mark(folder, mark, text)
    return folder


def remove_unnamed(folder, pattern, named):
    """Remove the files in ``folder`` whose names match ``pattern`` (a
    compiled regex: the names knight gives) and are not in ``named``;
    nothing else in it is touched."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if pattern.fullmatch(entry.name) and entry.name not in named and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def remove_if_only_mark(folder, mark):
    """Remove ``folder`` when only its ``mark`` is left in it: a file of
    the user's keeps it, and the mark with it."""
    with contextlib.suppress(OSError):
        if os.listdir(folder) == [mark]:
            os.unlink(os.path.join(folder, mark))
            os.rmdir(folder)
