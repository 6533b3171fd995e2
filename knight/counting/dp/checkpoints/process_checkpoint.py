"""This module saves and resumes a frontier-DP count in one file.

The file holds the finished runs and the table of the run under way. It is
written atomically, and a file that knight did not write is never
overwritten."""

import json
import os
import time

import numpy as np

from knight.counting.dp.checkpoints import checkpoint_header, linked_table
from knight.counting.dp.tables import packed_table, table_format
from knight.errors import InvalidArgument
from knight.files import atomic_write, journal, strict_json

# /5: the linked table may be packed (``packed_table``); /4: the table may
# be linked files beside it (``linked_table``); /3 had a checksum over the
# header and the table; /2 had none; a /1 file holds base-16 keys
CHECKPOINT_FORMAT = "knight-dp-checkpoint/5"


class Checkpoint:
    """A resumable DP count in one ``.npz`` file: the runs finished (their
    counts) and the table after the last saved step of the run under way.

    Written whole to a temporary file, then renamed over the old one
    (``os.replace`` is atomic), so a kill at any moment leaves the last
    complete checkpoint. A file that is not a checkpoint is never
    overwritten; one made for a different count is refused.
    """

    def __init__(self, path, identity, finished, current, arrays, linked=None):
        self.path = path
        self.identity = identity
        self.finished = finished
        self._current = current  # (run key, step, completed) or None
        self._arrays = arrays  # (keys, counts) of the current run, or None
        self._linked = linked  # the 'table' field of the file on disk: the links it names
        self._saved = time.monotonic()
        self._write_seconds = 0.0  # the last write's

    @staticmethod
    def check(path):
        """``path`` as a string, if it can be a checkpoint: refuses (before
        a count starts) a folder, a missing parent, a file that is not one."""
        # the same refusals as a resume file's (knight.files.journal)
        path = journal.usable_path(path, "a knight dp checkpoint", replaced=True)
        journal.SideLock.check(path)  # another run's file: refused before the count prints its plans
        if os.path.exists(path):
            _read_checkpoint(path)
        linked_table.check_folder(linked_table.folder_of(path))
        return path

    @classmethod
    def open(cls, path, rows, cols, closed, starts, quotient=True):
        path = journal.followed(os.fspath(path), "a knight dp checkpoint")
        identity = checkpoint_header.count_identity(CHECKPOINT_FORMAT, rows, cols, closed, starts, quotient)
        if not os.path.exists(path):
            return cls(path, identity, {}, None, None)
        linked_table.check_folder(linked_table.folder_of(path))
        header, keys, counts = _read_checkpoint(path)
        checkpoint_header.check_identity(path, header, identity)
        if header.get("table") is not None:
            # the table is in linked files beside the checkpoint: mapped, and
            # checked by the checksum below like an embedded one
            keys, counts = linked_table.load(
                linked_table.folder_of(path), header["table"], lambda what: checkpoint_header.damaged(path, what)
            )
        finished, current = checkpoint_header.checked_fields(path, header, keys, counts, rows * cols, closed, starts)
        arrays = (keys, counts) if current is not None else None
        return cls(path, identity, finished, current, arrays, header.get("table"))

    def resume_state(self, run_key):
        """``(step, keys, counts, completed)`` saved for this run, or None."""
        if self._current is None or self._current[0] != run_key:
            return None
        _, step, completed = self._current
        keys, counts = self._arrays
        return step, keys, counts, completed

    def saver(self, run_key):
        """An ``on_step`` for ``run_loop.count_hamiltonian``: saves the table
        after every step it made on disk (``linked_table``), else when
        ``checkpoint_header.save_due``."""

        def on_step(step, keys, counts, completed):
            # a table on disk is saved after every step: linked, it costs no copy
            if table_format.is_mapped(keys) or checkpoint_header.save_due(self._saved, self._write_seconds):
                self._current = (run_key, step, completed)
                self._write(keys, counts)

        return on_step

    def finish(self, run_key, count):
        self.finished[int(run_key)] = int(count)
        self._current = None
        self._write(np.zeros(0, dtype=np.uint64), np.zeros((0, 2), dtype=np.uint64))

    def _write(self, keys, counts):
        began = time.monotonic()
        header = dict(self.identity)
        header["finished"] = {str(key): value for key, value in self.finished.items()}
        header["current"] = None if self._current is None else list(self._current)
        folder = linked_table.folder_of(self.path)
        linked = None
        if self._current is not None and keys.shape[0]:
            linked = linked_table.link(folder, self._current[0], self._current[1], keys, counts)
        header["table"] = linked
        if linked is None:
            # embedded: a packed table is decoded (links could not be made)
            keys, counts = packed_table.dense(keys, counts)
            keys, counts = np.ascontiguousarray(keys), np.ascontiguousarray(counts)
        # the checksum covers the table's bytes wherever they are kept
        header["checksum"] = checkpoint_header.checksum(header, keys, counts)
        if linked is not None:
            keys, counts = np.zeros(0, dtype=np.uint64), np.zeros((0, counts.shape[1]), dtype=np.uint64)
        encoded = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        try:
            # a failure (a full disk) is an OSError naming the file: exit
            # status 74, and the last checkpoint is still there
            atomic_write.replace(
                self.path, lambda file: np.savez(file, header=encoded, keys=keys, counts=counts), binary=True
            )
        except BaseException:
            # the links just made go, the last checkpoint's stay (and the
            # folder, if only its mark is left)
            linked_table.remove_unnamed(folder, self._linked)
            raise
        # the links the new checkpoint does not name go only after it is written
        linked_table.remove_unnamed(folder, linked)
        self._linked = linked
        self._saved = time.monotonic()
        self._write_seconds = self._saved - began


def _read_checkpoint(path):
    """``(header, keys, counts)`` of the checkpoint at ``path``, or
    InvalidArgument: a file that is not one is never overwritten."""
    try:
        # opened here, not by np.load, which leaves its file open when the zip is broken
        with open(path, "rb") as file, np.load(file, allow_pickle=False) as data:
            header = strict_json.loads(bytes(data["header"]))
            keys, counts = data["keys"], data["counts"]
    except Exception:
        if _begins_as_ours(path):
            raise checkpoint_header.damaged(path, "it cannot be read whole: cut short or overwritten") from None
        raise InvalidArgument(f"{path} is not a knight dp checkpoint; refusing to overwrite it") from None
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
        raise InvalidArgument(f"{path} is not a knight dp checkpoint; refusing to overwrite it")
    return header, keys, counts


# a checkpoint is a zip whose first member is the header (``np.savez``
# writes its arrays in the order given): a local file header, then the name
_ZIP_MEMBER = b"PK\x03\x04"
_FIRST_MEMBER = b"header.npy"


def _begins_as_ours(path):
    """Whether the file at ``path`` begins as a checkpoint of knight's does,
    so that one that cannot be read whole (cut short) is called damaged, not
    a stranger's file."""
    try:
        with open(path, "rb") as file:
            head = file.read(30 + len(_FIRST_MEMBER))
    except OSError:
        return False
    if not head.startswith(_ZIP_MEMBER):
        return False
    if len(head) >= 28 and int.from_bytes(head[26:28], "little") != len(_FIRST_MEMBER):
        return False
    return _FIRST_MEMBER.startswith(head[30:])
