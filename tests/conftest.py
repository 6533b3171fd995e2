"""Fixtures shared by the knight and bench tests."""

import os
import signal
import tempfile
from pathlib import Path

import pytest

# A shell without job control starts `cmd &` with SIGINT ignored, and an
# ignored signal stays ignored across exec: the programs the Ctrl-C tests
# interrupt would shrug the signal off and run to the end. A handler, unlike
# SIG_IGN, is reset by exec, so each child starts with Python's own.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _cannot_create_in(folder):
    try:
        descriptor, name = tempfile.mkstemp(dir=folder)
    except OSError:
        return True
    os.close(descriptor)
    os.unlink(name)
    return False


@pytest.fixture
def unwritable_folder(tmp_path):
    """A folder in which no file can be created: a read-only one, or (as
    root, who may write anywhere on disk) a kernel folder that refuses."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if _cannot_create_in(folder):
            yield folder
            return
        for candidate in (Path("/sys/kernel"), Path("/proc/sys")):
            if candidate.is_dir() and _cannot_create_in(candidate):
                yield candidate
                return
        pytest.skip("no folder here refuses new files")
    finally:
        folder.chmod(0o755)
