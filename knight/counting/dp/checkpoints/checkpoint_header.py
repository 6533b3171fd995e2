"""This module holds what every checkpoint of a DP count shares, in one process or on a cluster.

The header records the count that the file belongs to, and a file made for
another count is refused. A SHA-256 over the header and the table finds a
file edited or damaged since knight wrote it. The module also checks the
types and ranges of the finished runs and of the run under way, and it says
how often the table is saved."""

import hashlib
import json
import time

import numpy as np

from knight.counting.dp.model.cell_order import ORDER_NAME, QUOTIENT_NAME
from knight.counting.dp.runs.run_loop import MAX_LIMBS
from knight.counting.dp.tables import packed_table
from knight.errors import InvalidArgument

# a table in memory is written at most this often: a 7x7 table is a few GB,
# and writing it after every step would cost more than the steps
CHECKPOINT_SECONDS = 60.0
# and at most this share of the run's time: a gap of at least this many
# times the last write's seconds (8x8's tables in memory take tens of
# seconds to write whole)
CHECKPOINT_COST_RATIO = 10.0


def save_due(saved, last_write_seconds, every=None):
    """Whether a table in memory, last saved at ``saved`` (``time.monotonic``)
    by a write of ``last_write_seconds``, is due to be saved again: past
    ``every`` seconds (default ``CHECKPOINT_SECONDS``; 0 saves after every
    step) and past ``CHECKPOINT_COST_RATIO`` times that write."""
    every = CHECKPOINT_SECONDS if every is None else every
    return time.monotonic() - saved >= max(every, CHECKPOINT_COST_RATIO * last_write_seconds if every else 0.0)


def count_identity(format_name, rows, cols, closed, starts, quotient=True):
    """What a checkpoint of ``format_name`` records of the count it belongs
    to. The order's name says whether the runs keep one state for each
    mirror pair (``quotient``): such tables resume only such runs."""
    return {
        "format": format_name,
        "rows": rows,
        "cols": cols,
        "closed": closed,
        "starts": sorted(int(s) for s in starts),
        "order": ORDER_NAME + (QUOTIENT_NAME if quotient else ""),
    }


def check_identity(path, header, identity):
    """InvalidArgument unless ``header`` records the count of ``identity``."""
    found = {key: header.get(key) for key in identity}
    if found != identity:
        changed = [key for key in identity if found[key] != identity[key]]
        differ = ", ".join(f"{key} {_brief(found[key])} (now {_brief(identity[key])})" for key in changed)
        raise InvalidArgument(f"{path} records a different count: {differ}")


def damaged(path, what):
    """The one refusal of a checkpoint changed since knight wrote it."""
    return InvalidArgument(f"{path} is damaged or was edited ({what}); it is left untouched: resume into a new file")


def checksum(header, keys, counts):
    """SHA-256 of the header (less its checksum) and the table's bytes (a
    packed table's: its files', in order): a file edited or damaged since
    knight wrote it is refused, not resumed into a count printed as exact."""
    digest = hashlib.sha256()
    fields = {key: value for key, value in header.items() if key != "checksum"}
    digest.update(json.dumps(fields, sort_keys=True).encode())
    if isinstance(keys, packed_table.PackedTable):
        for path in keys.files:
            with open(path, "rb") as file:
                while block := file.read(1 << 24):
                    digest.update(block)
        return digest.hexdigest()
    for array in (keys, counts):
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).reshape(-1).view(np.uint8))
    return digest.hexdigest()


def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def checked_fields(path, header, keys, counts, squares, closed, starts):
    """``(finished, current)`` of a checkpoint's header, every field's type
    and range checked (a file is untrusted input), or InvalidArgument."""

    if header.get("checksum") != checksum(header, keys, counts):
        raise damaged(path, "its checksum does not match")
    # the runs a count can have: one per start, or -1, the one run of closed
    # tours or of a total (whose starts are none: every start at once)
    run_keys = {-1} if closed or not starts else {int(start) for start in starts}
    finished = header.get("finished")
    if not isinstance(finished, dict):
        raise damaged(path, "'finished' is not a mapping")
    checked = {}
    for key, value in finished.items():
        if not (isinstance(key, str) and key.lstrip("-").isdigit() and int(key) in run_keys) or not _is_count(value):
            raise damaged(path, f"'finished' holds {_brief(key)}: {_brief(value)}")
        checked[int(key)] = value
    current = header.get("current")
    if current is None:
        return checked, None
    if not (isinstance(current, list) and len(current) == 3 and all(isinstance(v, int) for v in current)):
        raise damaged(path, "'current' is not [run, step, tours]")
    run_key, step, completed = current
    if run_key not in run_keys or run_key in checked or not 0 <= step <= squares or not _is_count(completed):
        raise damaged(path, f"'current' is {current}")
    if isinstance(keys, packed_table.PackedTable):
        if not 1 <= keys.limbs <= MAX_LIMBS:
            raise damaged(path, "its table's counts have the wrong width")
        return checked, (run_key, step, completed)
    if not (
        keys.dtype == np.uint64
        and keys.ndim == 1
        and counts.dtype == np.uint64
        and counts.ndim == 2
        and counts.shape[0] == keys.shape[0]
        and 1 <= counts.shape[1] <= MAX_LIMBS
    ):
        raise damaged(path, "its table's arrays have the wrong shape or type")
    return checked, (run_key, step, completed)


def _brief(value):
    return f"{len(value)} squares" if isinstance(value, list) else value
