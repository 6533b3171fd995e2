"""This module keeps the resume file of a DFS count, one JSON line for each finished work unit.

The file is append-only.

The first line describes the count (its plan's header and node budget); a
file made for a different count is refused rather than mixed in, and a
file that is not a resume file is refused and left untouched. Each later
line records one unit as it finishes. The file is a ``knight.files.journal``:
locked while a count runs, flushed per unit, a torn last line dropped,
every other line checked against its own checksum (a damaged record is
refused, never counted). JSON is read back by ``strict_json.loads``,
bounded in depth.
"""

import json
import operator

from knight.errors import InvalidArgument
from knight.files import journal, strict_json
from knight.runtime import status
from knight.validate import shown

# the first key of every resume file's header: what tells ours from a stranger's
FILE = "knight count resume"
# the header's ``version``: 2 since each record line carries its checksum
# (knight.files.journal); a file of version 1 (no key) has unchecked records
VERSION = 2
_RECORD_KEYS = ("unit", "status", "tours", "nodes")
KIND = "a knight resume file"


# what the kernels count in: a record past it was not written by a count
_MOST = 2**63 - 1
# the statuses a finished unit can have (a stopped one is never recorded)
_UNIT_STATUSES = (status.FOUND, status.NONE, status.BUDGET)


def _count(value, name, most=_MOST):
    """A non-negative int of a record (JSON has no other integers), at most ``most``."""
    if isinstance(value, bool) or not 0 <= operator.index(value) <= most:
        raise ValueError(f"{name} must be an integer in 0..{most}, got {value!r}"[:200])
    return value


def _parser(units, budget):
    def parse(line):
        record = strict_json.loads(line)
        if not isinstance(record, dict):
            raise ValueError("a record is a JSON object")
        unit, code, tours, nodes = (_count(record[key], key) for key in _RECORD_KEYS)
        if units is not None and unit >= units:
            raise ValueError(f"unit {unit} is past the plan's {units} units")
        if code not in _UNIT_STATUSES:
            raise ValueError(f"status {code} is not one a finished unit has")
        if code != status.BUDGET and (code == status.FOUND) != (tours > 0):
            raise ValueError(f"status {code} does not go with {tours} tours")
        if budget is not None:
            _count(nodes, "nodes", most=budget)
        return unit, code, tours, nodes

    return parse


def _finished(path, records):
    """``{unit: (status, tours, nodes)}``; a unit recorded twice with two
    answers is a damaged or edited file: which line is right is unknowable,
    so neither is taken."""
    finished = {}
    for unit, code, tours, nodes in records:
        known = finished.setdefault(unit, (code, tours, nodes))
        if known != (code, tours, nodes):
            raise InvalidArgument(
                f"{path}: unit {unit} is recorded twice with different results; "
                "the file was edited or damaged: resume into a new file"
            )
    return finished


def _recognise(line):
    """Whether ``line`` is the header of a resume file (of any count)."""
    found = strict_json.loads(line)
    return isinstance(found, dict) and (found.get("file") == FILE or {"rows", "cols", "units"} <= set(found))


def _sealed(line):
    """Whether the records under the header ``line`` carry checksums (a
    file of version 1 has none: ``_differs`` names it)."""
    found = strict_json.loads(line)
    return isinstance(found, dict) and found.get("version") == VERSION


def _differs(header, line):
    """How the count of the header ``line`` differs from ``header``'s, or
    None when ``line`` is not a resume file's header."""
    found = strict_json.loads(line)
    if not isinstance(found, dict):
        return None
    if found.get("file") != FILE:
        if {"rows", "cols", "units"} <= set(found):
            return "is a resume file of an older knight, which did not record the node budget: resume into a new file"
        return None
    version = found.get("version", 1)
    if version == 1:
        return "is a resume file of version 1, whose records carry no checksum: resume into a new file"
    if version != VERSION:
        return (
            f"is a resume file of version {shown(version)}; this knight reads version {VERSION}: resume into a new file"
        )
    differ = ", ".join(
        f"{key} {found.get(key)} (now {value})" for key, value in header.items() if found.get(key) != value
    )
    return f"records a different count: {differ}"


class UnitStore:
    """``finished`` maps unit index to ``(status, tours, nodes)``."""

    def __init__(self, file, finished):
        self.path = file.path
        self.finished = finished
        self._journal = file

    @staticmethod
    def check(path):
        """``path`` as a string, if it can be a resume file: refuses (before
        a count plans) a folder, a missing parent, a file that is not one."""
        # every header is a JSON object
        return journal.check(path, KIND, _recognise, starts=b"{", sealed=_sealed)

    @classmethod
    def open(cls, path, header):
        """Open (or start) the resume file at ``path`` of the count that
        ``header`` describes; InvalidArgument if it is not that count's."""
        header = {"file": FILE, "version": VERSION, **header}
        units, budget = header.get("units"), header.get("budget")
        format_ = journal.Format(
            kind=KIND,
            header=json.dumps(header),
            parse=_parser(units if isinstance(units, int) else None, budget if isinstance(budget, int) else None),
            differs=lambda line: _differs(header, line),
        )
        file = journal.Journal.open(path, format_)
        try:
            finished = _finished(file.path, file.records)
        except InvalidArgument:
            file.close()
            raise
        return cls(file, finished)

    def record(self, index, prefix, status, tours, nodes):
        line = {"unit": index, "prefix": list(prefix), "status": status, "tours": tours, "nodes": nodes}
        self._journal.append(json.dumps(line))
        self.finished[index] = (status, tours, nodes)

    def close(self):
        self._journal.close()
