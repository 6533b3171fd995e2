"""This module writes a run folder's two data files so that an interrupt never corrupts them.

``runs.csv`` is a ``knight.files.journal``: append-only, one complete line per
finished run, flushed at once and fsynced about once a second, locked while
a sweep writes it; its last column, ``checksum``, is the journal's check of
the line (a damaged line is refused, naming the file and the line). A
line cut short by a crash has no newline; ``read_runs`` skips it and
``RunsFile`` trims it before appending again. Any other line that is not a
row is an error naming the file and the line, never skipped silently; a
file that is not a runs.csv is refused and never written.

``meta.json`` is rewritten whole: written to a temporary file, fsynced,
then renamed over the old one, which is atomic on POSIX.
"""

import csv
import io
import math
from dataclasses import asdict, dataclass, fields

from knight import InvalidArgument
from knight.harness_api import atomic_write, journal, status, strict_json

RUNS = "runs.csv"
META = "meta.json"

# what a status says about a run: knight's words for a search's end
# (knight/runtime/status.py), and the harness's own for a start not searched
SEARCHED = tuple(status.WORDS.values())
FOUND, NONE, BUDGET, DEAD_END = (
    status.WORDS[code] for code in (status.FOUND, status.NONE, status.BUDGET, status.DEAD_END)
)
IMPOSSIBLE = "impossible"


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


# the csv module refuses a field over 128 KiB with its own error; the
# journal has read the whole line into memory by then, so the limit guards
# nothing here: a long field is read, and refused as a value if it is one
csv.field_size_limit(2**31 - 1)


def _parse(line):
    try:
        fields = next(csv.reader([line]))
    except csv.Error as error:  # a stray NUL byte, an unclosed quote
        raise ValueError(str(error)) from None
    return from_fields(fields)


def _differs(line):
    if line == ",".join(COLUMNS):
        return (
            "is a runs.csv of the unchecked format (no checksum column: its rows cannot be checked): "
            "finish it with the version that wrote it, or start a new run"
        )
    if line.startswith("rows,cols,"):
        return "has the columns of another version of the harness: finish it with that version, or start a new run"
    return None


# the journal's checksum of each line, after a comma: one more CSV column
CHECKSUM_COLUMN = "checksum"
RUNS_FORMAT = journal.Format(
    kind="a runs.csv of python -m bench",
    header=",".join((*COLUMNS, CHECKSUM_COLUMN)),
    parse=_parse,
    differs=_differs,
    separator=",",
)


def read_runs(path):
    """Every row of a runs.csv, in file order. A last line without its
    newline (cut by a crash) is skipped; any other line that is not a row,
    or a file that is not a runs.csv, is InvalidArgument naming it."""
    return journal.read(path, RUNS_FORMAT)


class RunsFile(journal.Journal):
    """An open runs.csv (``RunsFile.open(path)``): created with its header,
    locked until closed (a second sweep into the same folder is refused);
    ``records`` holds the rows it had, ``append`` adds a RunRecord."""

    @classmethod
    def open(cls, path):
        return super().open(path, RUNS_FORMAT)

    def append(self, record):
        super().append(to_line(record)[:-1])


def write_json(path, data):
    """Replace ``path`` with ``data`` as strict JSON (no NaN), atomically."""
    text = strict_json.dumps(data, indent=2) + "\n"
    atomic_write.replace(path, lambda stream: stream.write(text), shared=True)


def read_json(path):
    """The JSON in ``path``; InvalidArgument naming it (and the line) if
    it cannot be read or parsed."""
    try:
        with open(path, encoding="utf-8") as stream:
            return strict_json.loads(stream.read())
    except OSError as error:
        raise InvalidArgument(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:  # JSONDecodeError says the line; UnicodeDecodeError the byte
        raise InvalidArgument(f"{path} is not JSON: {error}") from None


# meta.json's keys and the types ``sweep.create`` writes them with
META_TYPES = {
    "schema": int,
    "command": list,
    "sweep": dict,
    "extras": (dict, type(None)),
    "runs_planned": int,
    "runs_done": int,
    "complete": bool,
    "started": str,
    "finished": (str, type(None)),
    "machine": dict,
    "software": dict,
    "numba": dict,
    "git": dict,
    "compile_seconds": (dict, type(None)),
    "sessions": list,
}
# keys that a later version writes, checked when present: a run folder made
# before them is still read (its parts read as finished once its runs are)
OPTIONAL_META_TYPES = {"not_run": list, "extras_done": list}
SCHEMA = 1


def read_meta(path):
    """A run folder's meta.json, its keys and their types checked;
    InvalidArgument naming the file and the key otherwise."""
    meta = read_json(path)
    if not isinstance(meta, dict) or meta.get("schema") != SCHEMA:
        raise InvalidArgument(f"{path} is not the meta.json of a python -m bench run (schema {SCHEMA})")
    for key, kind in META_TYPES.items():
        if key not in meta:
            raise InvalidArgument(f"{path} has no {key!r}")
        if not isinstance(meta[key], kind) or (kind is int and isinstance(meta[key], bool)):
            raise InvalidArgument(f"{path}: {key!r} has the wrong type ({type(meta[key]).__name__})")
    for key, kind in OPTIONAL_META_TYPES.items():
        if key in meta and not (isinstance(meta[key], kind) and all(isinstance(item, str) for item in meta[key])):
            raise InvalidArgument(f"{path}: {key!r} has the wrong type ({type(meta[key]).__name__})")
    return meta
