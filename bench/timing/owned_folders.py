"""This module names the harness's temporary folders and removes those that a dead run left behind.

Each folder is marked with its owner.

A run removes its own folders in ``finally`` blocks, so an interrupt or a
SIGTERM leaves nothing. A kill that runs no code (SIGKILL, a power cut, a
closed terminal before SIGHUP is handled) can leave one. Its name carries
the maker's process id and it holds a mark file, as the DP's spill folders
do (``knight.files.owned_files``, whose checks this module reuses): the next
run of the same kind removes a folder only when it matches the prefix,
holds the mark, belongs to this user and its maker no longer exists.
"""

import contextlib
import os
import re
import shutil
import tempfile

from knight.harness_api import owned_files

MARK = "knight-bench-owner"


def make(prefix):
    """A new folder in ``$TMPDIR`` named ``PREFIX<pid>-...``, marked as this run's.

    Parameters
    ----------
    prefix : str
        The start of the folder's name, e.g. ``"knight-ab-"``.

    Returns
    -------
    str
        The folder's path.

    Examples
    --------
    >>> folder = make("knight-doc-")
    >>> os.path.isfile(os.path.join(folder, MARK))
    True
    >>> shutil.rmtree(folder)
    """
    folder = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-")
    owned_files._write_mark(folder, MARK, f"a temporary folder of process {os.getpid()}; removed when it ends\n")
    return folder


def remove_stale(prefix, before=None, parent=None):
    """Remove the folders that ``make(prefix)`` made for processes that no longer exist.

    Parameters
    ----------
    prefix : str
        The prefix given to ``make``.
    before : callable, optional
        Called with each stale folder's path before it is removed (to
        unregister a git worktree inside it, say).
    parent : str, optional
        Where to look; ``$TMPDIR`` by default.

    Returns
    -------
    list of str
        The folders removed.

    Examples
    --------
    >>> remove_stale("knight-doc-none-")
    []
    """
    parent = tempfile.gettempdir() if parent is None else parent
    pattern = re.compile(re.escape(prefix) + r"(\d+)-[A-Za-z0-9_]+")
    removed = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            found = pattern.fullmatch(entry.name)
            if not found or not entry.is_dir(follow_symlinks=False) or not owned_files._ours(entry.path):
                continue
            if os.path.isfile(os.path.join(entry.path, MARK)) and owned_files._dead(int(found[1])):
                if before is not None:
                    before(entry.path)
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(entry.path)
    return removed
