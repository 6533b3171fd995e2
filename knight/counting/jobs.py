"""What a count is, between its driver and its engines: the ``Job`` an
engine is handed (validated, its starts planned once) and the ``Tally`` it
returns. Both engines import this module, and nothing here imports an
engine."""

from dataclasses import dataclass

from knight.geometry import theory
from knight.geometry.symmetry import symmetry_classes


@dataclass(frozen=True)
class Starts:
    """The start squares of a count, planned once: ``classes`` maps each
    representative to the squares sharing its count (its symmetry class, or
    itself alone); ``excluded`` holds the representatives colour parity
    rules out (no tour starts there)."""

    classes: dict
    excluded: frozenset

    def searched(self, pruned):
        """The representatives a count searches: a pruned count skips those
        parity excludes; a plain one searches them too, node for node."""
        return [s for s in self.classes if not (pruned and s in self.excluded)]


def plan_starts(rows, cols, starts, symmetry=True):
    """``Starts`` of a count from ``starts`` (0-based squares)."""
    classes = symmetry_classes(rows, cols, starts) if symmetry else {int(s): [int(s)] for s in starts}
    excluded = frozenset(s for s in classes if theory.parity_excludes(rows, cols, s))
    return Starts(classes, excluded)


@dataclass(frozen=True)
class Job:
    """A validated count, its starts planned: what an engine is handed.
    ``start`` is the one 0-based ``(row, col)`` asked for, or None for every
    square; ``depth``, ``workers``, ``scheduler`` and ``resume`` are the
    DFS engine's (see ``count_tours``)."""

    rows: int
    cols: int
    start: tuple | None
    closed: bool
    budget: int
    method: str
    pruned: bool
    starts: Starts
    depth: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    resume: str | None = None
    memory: int | None = None  # the DP's budget of anonymous memory, bytes
    # why the theorems leave no tour to count (``theory.no_tour_reason``),
    # "" if they leave some: a job with a reason is answered by no engine
    ruled_out: str = ""
    # the DP's total over every start from one run (``count_total``), not
    # each start's count: no start, no starts planned
    total: bool = False
    disk: int | None = None  # the DP's budget of its spill folder's disk, bytes

    @property
    def searched(self):
        return self.starts.searched(self.pruned)


@dataclass(frozen=True)
class Tally:
    """An engine's answer, per searched start: ``tours``, ``nodes`` (its
    work) and whether every part of its search finished (``complete``);
    ``seconds`` of wall time, compilation excluded; ``depth`` and ``units``:
    how the DFS engine split the work (0 for an engine that does not)."""

    tours: dict
    nodes: dict
    complete: dict
    seconds: float
    depth: int = 0
    units: int = 0
    work: dict | None = None  # an engine's own measures of work, as Count fields
