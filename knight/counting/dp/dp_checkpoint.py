"""A resumable frontier-DP count in one file: the runs finished and the
table of the run under way, written atomically, a stranger's file never
overwritten."""

import json
import os
import tempfile
import time

import numpy as np

from knight import journal
from knight.counting.dp.cell_order import ORDER_NAME
from knight.errors import InvalidArgument

# /2: keys in base 11 (17 slots); a /1 file holds base-16 keys
CHECKPOINT_FORMAT = "knight-dp-checkpoint/2"
# a checkpoint is written at most this often: a 7x7 table is a few GB, and
# writing it after every step would cost more than the steps
CHECKPOINT_SECONDS = 60.0


class Checkpoint:
    """A resumable DP count in one ``.npz`` file: the runs finished (their
    counts) and the table after the last saved step of the run under way.

    Written whole to a temporary file, then renamed over the old one
    (``os.replace`` is atomic), so a kill at any moment leaves the last
    complete checkpoint. A file that is not a checkpoint is never
    overwritten; one made for a different count is refused.
    """

    def __init__(self, path, identity, finished, current, arrays):
        self.path = path
        self.identity = identity
        self.finished = finished
        self._current = current  # (run key, step, completed) or None
        self._arrays = arrays  # (keys, counts) of the current run, or None
        self._saved = time.monotonic()

    @staticmethod
    def check(path):
        """``path`` as a string, if it can be a checkpoint: refuses (before
        a count starts) a folder, a missing parent, a file that is not one."""
        # the same refusals as a resume file's (knight.journal)
        path = journal.usable_path(path, "a knight dp checkpoint")
        if os.path.exists(path):
            _read_checkpoint(path)
        return path

    @classmethod
    def open(cls, path, rows, cols, closed, starts):
        path = os.fspath(path)
        identity = {
            "format": CHECKPOINT_FORMAT,
            "rows": rows,
            "cols": cols,
            "closed": closed,
            "starts": sorted(int(s) for s in starts),
            "order": ORDER_NAME,
        }
        if not os.path.exists(path):
            return cls(path, identity, {}, None, None)
        header, keys, counts = _read_checkpoint(path)
        found = {key: header.get(key) for key in identity}
        if found != identity:
            changed = [key for key in identity if found[key] != identity[key]]
            differ = ", ".join(f"{key} {_brief(found[key])} (now {_brief(identity[key])})" for key in changed)
            raise InvalidArgument(f"{path} records a different count: {differ}")
        finished = {int(key): int(value) for key, value in header["finished"].items()}
        current = header.get("current")
        arrays = (keys, counts) if current is not None else None
        return cls(path, identity, finished, None if current is None else tuple(current), arrays)

    def resume_state(self, run_key):
        """``(step, keys, counts, completed)`` saved for this run, or None."""
        if self._current is None or self._current[0] != run_key:
            return None
        _, step, completed = self._current
        keys, counts = self._arrays
        return step, keys, counts, completed

    def saver(self, run_key):
        """An ``on_step`` for ``dp_run.count_hamiltonian``: saves the table at most every
        ``CHECKPOINT_SECONDS``."""

        def on_step(step, keys, counts, completed):
            if time.monotonic() - self._saved >= CHECKPOINT_SECONDS:
                self._current = (run_key, step, completed)
                self._write(keys, counts)

        return on_step

    def finish(self, run_key, count):
        self.finished[int(run_key)] = int(count)
        self._current = None
        self._write(np.zeros(0, dtype=np.uint64), np.zeros((0, 2), dtype=np.uint64))

    def _write(self, keys, counts):
        header = dict(self.identity)
        header["finished"] = {str(key): value for key, value in self.finished.items()}
        header["current"] = None if self._current is None else list(self._current)
        encoded = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        # a fresh name beside the checkpoint: a file of the user's that
        # happens to be called CHECKPOINT.tmp is never overwritten
        folder, name = os.path.split(os.path.abspath(self.path))
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
            with os.fdopen(handle, "wb") as file:
                np.savez(file, header=encoded, keys=keys, counts=counts)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except OSError as error:
            raise InvalidArgument(f"cannot write the dp checkpoint {self.path}: {error.strerror or error}") from None
        self._saved = time.monotonic()


def _brief(value):
    return f"{len(value)} squares" if isinstance(value, list) else value


def _read_checkpoint(path):
    """``(header, keys, counts)`` of the checkpoint at ``path``, or
    InvalidArgument: a file that is not one is never overwritten."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            keys, counts = data["keys"], data["counts"]
    except Exception:
        raise InvalidArgument(f"{path} is not a knight dp checkpoint; refusing to overwrite it") from None
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
        raise InvalidArgument(f"{path} is not a knight dp checkpoint; refusing to overwrite it")
    return header, keys, counts
