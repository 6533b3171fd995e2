"""The temporaries knight makes, named so that knight alone takes them for
its own, and the removal of those that a killed run (SIGKILL, a power cut)
left behind.

Every exit that can run code removes its temporaries itself (``finally``
blocks; SIGTERM is turned into an exception by ``knight.exit_status``).
Only a kill that runs nothing leaves one, and the next run in the same
place removes it. A name carries the process id of its maker: what is
removed is only what matches knight's pattern, belongs to this user, and
was made by a process that no longer exists. A live run's temporaries, and
every file of the user's, are never touched.
"""

import contextlib
import os
import re
import shutil
import tempfile

# a spill folder holds this file, so that a folder merely named like one is not taken for one
SPILL_MARK = "knight-dp-spill"
_SPILL = re.compile(r"knight-dp-(\d+)-[A-Za-z0-9_]+")


def temporary_prefix(name):
    """The prefix of a temporary file standing for ``name`` beside it."""
    return f".{name}.knight-{os.getpid()}-"


def _temporary_pattern(name):
    return re.compile(re.escape(f".{name}.knight-") + r"(\d+)-[A-Za-z0-9_]+\.tmp")


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


def new_spill_folder():
    """A fresh folder in ``$TMPDIR`` for the DP's disk shards, marked as
    knight's; stale ones of killed runs are removed first."""
    remove_stale_spill_folders()
    folder = tempfile.mkdtemp(prefix=f"knight-dp-{os.getpid()}-")
    with open(os.path.join(folder, SPILL_MARK), "w") as mark:
        mark.write("the DP's disk shards of one count; removed when it ends\n")
    return folder


def remove_stale_spill_folders(parent=None):
    """Remove the spill folders in ``parent`` (``$TMPDIR``) of killed runs."""
    parent = tempfile.gettempdir() if parent is None else parent
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            found = _SPILL.fullmatch(entry.name)
            if not found or not entry.is_dir(follow_symlinks=False) or not _ours(entry.path):
                continue
            if os.path.isfile(os.path.join(entry.path, SPILL_MARK)) and _dead(int(found[1])):
                shutil.rmtree(entry.path, ignore_errors=True)
