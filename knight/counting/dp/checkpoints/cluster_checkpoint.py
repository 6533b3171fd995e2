"""This module saves and resumes a frontier-DP count on a Dask cluster.

A small checkpoint file stays on the client. The workers write the table's
partitions to files in a folder beside it (``FILE.parts``), which every
worker and the client reach at the same path.

The single-process checkpoint (``process_checkpoint``) holds the table in its
own file; a cluster's table is spread over the workers and may not fit on
the client, so each worker writes the partitions it holds (``cluster_run``)
and returns their SHA-256; the checkpoint names the step, the partition
files and their checksums, the tours completed so far and the run, and is
written atomically after the files. A step's files are removed only once a
newer checkpoint names others: a kill at any moment leaves one complete
checkpoint and the files it names.

What the program did not write is never overwritten or deleted: the
checkpoint must be one of ours, the folder carries a mark file of ours
(a folder of that name without it is refused), and inside it only files
named as partitions are ever removed.
"""

import json
import os
import re
import time
from dataclasses import dataclass

import numpy as np

from knight.counting.dp.checkpoints import checkpoint_header
from knight.counting.dp.runs.run_loop import MAX_LIMBS
from knight.errors import InvalidArgument
from knight.files import atomic_write, journal, owned_files, strict_json

CLUSTER_CHECKPOINT_FORMAT = "knight-dp-cluster-checkpoint/1"
KIND = "a knight dp cluster checkpoint"
# the folder of partition files is FILE + this
PARTS_SUFFIX = ".parts"
# a folder of ours holds this file, so that one merely named like it is not taken for ours
PARTS_MARK = "knight-dp-cluster-parts"
_FOLDER_KIND = "a partition folder"
_PART_FILE = re.compile(r"run-?\d+-step\d+-part\d+\.npz")
_SHA256 = re.compile(r"[0-9a-f]{64}")
# the header's checksum covers no table: the partitions have their own
_NO_KEYS, _NO_COUNTS = np.zeros(0, dtype=np.uint64), np.zeros((0, 1), dtype=np.uint64)


def part_name(run_key, step, part):
    """The file of partition ``part`` after ``step`` of run ``run_key``."""
    return f"run{run_key}-step{step}-part{part}.npz"


@dataclass(frozen=True)
class SavedParts:
    """A run's table as a checkpoint left it: after ``step`` steps,
    ``completed`` tours found, counts of ``limbs`` limbs, in the partition
    files ``parts`` (each ``{"file", "sha256", "states"}``) of ``folder``."""

    step: int
    completed: int
    limbs: int
    parts: tuple
    folder: str


class ClusterCheckpoint:
    """``process_checkpoint.Checkpoint``'s interface (``finished``,
    ``resume_state``, ``saver``, ``finish``) for a count on a cluster.
    ``every``: the seconds at least between two saves of the table (None:
    the single-process ``CHECKPOINT_SECONDS``; 0 saves after every step)."""

    def __init__(self, path, identity, finished, current, every):
        self.path = path
        self.folder = path + PARTS_SUFFIX
        self.identity = identity
        self.finished = finished
        self._current = current  # (run key, SavedParts) or None
        self.every = every
        self._saved = time.monotonic()

    @staticmethod
    def check(path):
        """``path`` as a string, if it can be a cluster checkpoint: refuses
        (before a count starts) what ``Checkpoint.check`` refuses, a file
        that is not one, and a partition folder that is not ours."""
        path = journal.usable_path(path, KIND, replaced=True)
        journal.SideLock.check(path)  # another run's file: refused before the count prints its plans
        if os.path.exists(path):
            _read(path)
        _check_folder(path + PARTS_SUFFIX)
        return path

    @classmethod
    def open(cls, path, rows, cols, closed, starts, every=None, quotient=True):
        path = journal.followed(os.fspath(path), KIND)
        every = checkpoint_header.CHECKPOINT_SECONDS if every is None else every
        identity = checkpoint_header.count_identity(CLUSTER_CHECKPOINT_FORMAT, rows, cols, closed, starts, quotient)
        _check_folder(path + PARTS_SUFFIX)
        if not os.path.exists(path):
            return cls(path, identity, {}, None, every)
        header = _read(path)
        checkpoint_header.check_identity(path, header, identity)
        finished, current = checkpoint_header.checked_fields(
            path, header, _NO_KEYS, _NO_COUNTS, rows * cols, closed, starts
        )
        saved = None
        if current is not None:
            run_key, step, completed = current
            limbs, parts = _checked_parts(path, header)
            saved = (run_key, SavedParts(step, completed, limbs, parts, path + PARTS_SUFFIX))
        return cls(path, identity, finished, saved, every)

    def resume_state(self, run_key):
        """The ``SavedParts`` of this run, or None."""
        if self._current is None or self._current[0] != run_key:
            return None
        return self._current[1]

    def saver(self, run_key):
        """What ``cluster_run.ClusterRun`` saves the table through."""
        return PartsSaver(self, run_key)

    def finish(self, run_key, count):
        self.finished[int(run_key)] = int(count)
        self._current = None
        self._write()
        self._remove_unnamed()
        owned_files.remove_if_only_mark(self.folder, PARTS_MARK)

    def due(self):
        return time.monotonic() - self._saved >= self.every

    def make_folder(self):
        """The partition folder, made and marked if it is not there."""
        return owned_files.make_marked_folder(
            self.folder,
            PARTS_MARK,
            _FOLDER_KIND,
            "the partition files of a knight dp count on a cluster; removed when it ends\n",
        )

    def record(self, run_key, saved):
        """Write the checkpoint naming ``saved`` (a ``SavedParts``), then
        remove the partition files it no longer names."""
        self._current = (run_key, saved)
        self._write()
        self._remove_unnamed()

    def _write(self):
        header = dict(self.identity)
        header["finished"] = {str(key): value for key, value in self.finished.items()}
        if self._current is None:
            header["current"], header["limbs"], header["parts"] = None, None, []
        else:
            run_key, saved = self._current
            header["current"] = [run_key, saved.step, saved.completed]
            header["limbs"], header["parts"] = saved.limbs, [dict(part) for part in saved.parts]
        header["checksum"] = checkpoint_header.checksum(header, _NO_KEYS, _NO_COUNTS)
        text = json.dumps(header)
        # a failure (a full disk) is an OSError naming the file: exit status 74
        atomic_write.replace(self.path, lambda file: file.write(text))
        self._saved = time.monotonic()

    def _remove_unnamed(self):
        """Remove the partition files of ours the checkpoint does not name."""
        named = set() if self._current is None else {part["file"] for part in self._current[1].parts}
        owned_files.remove_unnamed(self.folder, _PART_FILE, named)


class PartsSaver:
    """A run's way into its checkpoint: ``folder()`` (made on first need),
    ``due()``, ``name(step, part)`` for the workers' files, and
    ``record(step, completed, limbs, parts)`` once they are written."""

    def __init__(self, store, run_key):
        self.store = store
        self.run_key = run_key

    def due(self):
        return self.store.due()

    def folder(self):
        return self.store.make_folder()

    def name(self, step, part):
        return part_name(self.run_key, step, part)

    def record(self, step, completed, limbs, parts):
        saved = SavedParts(step, completed, limbs, tuple(parts), self.store.folder)
        self.store.record(self.run_key, saved)


def _check_folder(folder):
    owned_files.check_marked_folder(folder, PARTS_MARK, _FOLDER_KIND)


def _read(path):
    """The header of the cluster checkpoint at ``path``, or InvalidArgument."""
    try:
        with open(path, encoding="utf-8") as file:
            header = strict_json.loads(file.read())
    except (OSError, ValueError):
        header = None
    if not isinstance(header, dict) or header.get("format") != CLUSTER_CHECKPOINT_FORMAT:
        raise InvalidArgument(f"{path} is not {KIND}; refusing to overwrite it")
    return header


def _checked_parts(path, header):
    """``(limbs, parts)`` of a checkpoint with a run under way, every
    field checked: a file is untrusted input."""
    limbs, parts = header.get("limbs"), header.get("parts")
    if not (isinstance(limbs, int) and not isinstance(limbs, bool) and 1 <= limbs <= MAX_LIMBS):
        raise checkpoint_header.damaged(path, f"'limbs' is {limbs}")
    if not isinstance(parts, list) or not parts:
        raise checkpoint_header.damaged(path, "'parts' is not a list of partition files")
    for part in parts:
        if not (
            isinstance(part, dict)
            and set(part) == {"file", "sha256", "states"}
            and isinstance(part["file"], str)
            and _PART_FILE.fullmatch(part["file"])
            and isinstance(part["sha256"], str)
            and _SHA256.fullmatch(part["sha256"])
            and isinstance(part["states"], int)
            and not isinstance(part["states"], bool)
            and part["states"] >= 0
        ):
            raise checkpoint_header.damaged(path, f"'parts' holds {str(part)[:80]}")
    if len({part["file"] for part in parts}) != len(parts):
        raise checkpoint_header.damaged(path, "'parts' names a file twice")
    return limbs, tuple(parts)
