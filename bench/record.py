"""A run folder's two data files, written so that an interrupt never corrupts them.

``runs.csv`` is append-only: one complete line per finished run, flushed at
once (so it survives the process being killed) and fsynced at least once a
second (so it survives the machine going down, give or take that second).
A line cut short by a crash has no newline; ``read_runs`` skips it and
``RunsFile`` trims it before appending again.

``meta.json`` is rewritten whole: written to a temporary file, fsynced,
then renamed over the old one, which is atomic on POSIX.
"""

import csv
import io
import json
import math
import os
import time
from dataclasses import asdict, dataclass, fields

from knight import status

RUNS = "runs.csv"
META = "meta.json"

# what a status says about a run
SEARCHED = tuple(status.WORDS.values())
IMPOSSIBLE = "impossible"

_FSYNC_EVERY_S = 1.0


@dataclass(frozen=True)
class RunRecord:
    """One line of runs.csv: one search (or one start ruled out by theory).

    Squares are 1-based, as on the ``knight`` command line. ``tiebreak`` is
    empty for ``backtrack``, which has no tie rule. ``represents`` is how
    many start squares this one stands for: the size of its symmetry class
    when the sweep sampled one start per class, else 1. Seconds are None
    when nothing was searched.
    """

    rows: int
    cols: int
    start_row: int
    start_col: int
    method: str
    tiebreak: str
    closed: bool
    represents: int
    status: str
    nodes: int
    budget: int
    repeats: int
    median_s: float | None
    min_s: float | None
    max_s: float | None
    nodes_per_s: float | None
    reason: str

    @property
    def key(self):
        """What identifies a run within a sweep: no two rows share it."""
        return (self.rows, self.cols, self.start_row, self.start_col, self.method, self.tiebreak, self.closed)

    @property
    def searched(self):
        return self.status in SEARCHED

    @property
    def square(self):
        return self.rows == self.cols


COLUMNS = tuple(field.name for field in fields(RunRecord))
_TYPES = {field.name: field.type for field in fields(RunRecord)}


def _text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _value(name, text):
    kind = _TYPES[name]
    if kind is int:
        return int(text)
    if kind is bool:
        if text not in ("true", "false"):
            raise ValueError(f"{name} must be true or false, got {text!r}")
        return text == "true"
    if kind is str:
        return text
    number = None if text == "" else float(text)
    if number is not None and not math.isfinite(number):
        raise ValueError(f"{name} is not finite")
    return number


def to_line(record):
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(_text(value) for value in asdict(record).values())
    return buffer.getvalue()


def from_fields(values):
    """A RunRecord from one CSV line's fields; ValueError if they do not fit."""
    if len(values) != len(COLUMNS):
        raise ValueError(f"expected {len(COLUMNS)} fields, got {len(values)}")
    return RunRecord(**{name: _value(name, text) for name, text in zip(COLUMNS, values, strict=True)})


def read_runs(path):
    """Every complete, well-formed row of a runs.csv, in file order.

    Tolerant by design: a last line without its newline (cut by a crash) and
    any line that does not parse are skipped, so that what finished is
    always readable. Raises ValueError only when the header is wrong.
    """
    with open(path, newline="") as stream:
        text = stream.read()
    lines = text.split("\n")
    # the piece after the last newline is empty, or a line cut short
    complete = lines[:-1]
    if not complete or next(csv.reader([complete[0]])) != list(COLUMNS):
        raise ValueError(f"{path} does not start with the runs.csv header")
    records = []
    for fields_ in csv.reader(complete[1:]):
        try:
            records.append(from_fields(fields_))
        except (ValueError, TypeError):
            continue
    return records


class RunsFile:
    """Appends RunRecords to a runs.csv, creating it with its header."""

    def __init__(self, path):
        self.path = path
        if not os.path.exists(path):
            with open(path, "w", newline="") as stream:
                stream.write(",".join(COLUMNS) + "\n")
        self._trim_partial_line()
        self._stream = open(path, "a", newline="")
        self._synced = time.monotonic()

    def _trim_partial_line(self):
        with open(self.path, "rb+") as stream:
            data = stream.read()
            keep = data.rfind(b"\n") + 1
            if keep < len(data):
                stream.truncate(keep)

    def append(self, record):
        self._stream.write(to_line(record))
        self._stream.flush()
        if time.monotonic() - self._synced > _FSYNC_EVERY_S:
            self._sync()

    def _sync(self):
        os.fsync(self._stream.fileno())
        self._synced = time.monotonic()

    def close(self):
        if not self._stream.closed:
            self._sync()
            self._stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def write_json(path, data):
    """Replace ``path`` with ``data`` as JSON, atomically."""
    temporary = f"{path}.tmp"
    with open(temporary, "w") as stream:
        json.dump(data, stream, indent=2)
        stream.write("\n")
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, path)


def read_json(path):
    with open(path) as stream:
        return json.load(stream)
