"""Define the ``Job`` that the driver hands an engine and the ``Tally`` that the engine returns.

The driver validates a ``Job`` and plans its starts once. Both engines import
this module, and nothing here imports an engine.
"""

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


@dataclass(frozen=True, kw_only=True)
class Job:
    """A validated count with its starts planned: what an engine is handed.

    ``driver.prepare`` makes every ``Job``, and nothing downstream validates
    its fields again. It is built by keyword only.

    Attributes
    ----------
    rows, cols : int
        The board.
    start : tuple of int or None
        The one 0-based ``(row, col)`` asked for, or None for every square.
    closed : bool
        Count closed tours only.
    budget : int
        The DFS's most nodes a work unit; 0 for the DP, which places none.
    method : str
        The engine: ``dfs`` or ``dp``.
    pruned : bool
        Cut branches that cannot finish a tour.
    starts : Starts
        The start squares planned once.
    depth, workers : int or None
        The DFS's split into work units, and its local threads.
    scheduler : str or None
        The address of a Dask scheduler that runs the count.
    resume : str or None
        The file that keeps finished work.
    memory, disk : int or None
        The DP's budgets of anonymous memory and of its spill folder's disk, in bytes.
    ruled_out : str
        Why the theorems leave no tour (``theory.no_tour_reason``), or "".
        A job with a reason is answered by no engine.
    total : bool
        The DP's total over every start from one run, with no start planned.
    every_width : bool
        With ``total``, the total of every width of the board from that run.
    """

    rows: int
    cols: int
    start: tuple | None = None
    closed: bool = False
    budget: int = 0
    method: str = "dfs"
    pruned: bool = True
    starts: Starts = Starts({}, frozenset())
    depth: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    resume: str | None = None
    memory: int | None = None
    disk: int | None = None
    ruled_out: str = ""
    total: bool = False
    every_width: bool = False

    @property
    def searched(self):
        """The representatives that the count searches."""
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
