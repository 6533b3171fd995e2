"""What a search returns: plain data that the CLI, the harness and tests read."""

from dataclasses import dataclass

import numpy as np

from knight.geometry.board import coordinates


@dataclass(frozen=True)
class Result:
    """The outcome of one search.

    ``status`` is ``found`` (``tour`` holds it), ``none`` (the whole search
    space from ``start`` was exhausted: no tour from there), ``budget``
    (stopped after ``budget`` nodes) or ``dead-end`` (greedy only: stuck
    after ``nodes`` squares). ``tour`` holds 0-based square indices
    ``row * cols + col`` in visit order; ``seconds`` times the search alone,
    never compilation.
    """

    rows: int
    cols: int
    start: tuple
    method: str
    closed: bool
    budget: int
    status: str
    nodes: int
    seconds: float
    tour: np.ndarray | None = None
    tiebreak: str = "first"

    @property
    def found(self):
        return self.status == "found"

    def _repr_svg_(self):
        """The tour drawn, for Jupyter (``knight.drawing.notebook_svg``)."""
        from knight.drawing import notebook_svg

        return notebook_svg(self)

    def coordinates(self):
        """The tour as an ``(n, 2)`` array of 0-based ``(row, col)``, or None."""
        if self.tour is None:
            return None
        return coordinates(self.cols, self.tour)


@dataclass(frozen=True)
class Count:
    """Exhaustive count of tours from one start square, or from every one.

    For one start, ``tours`` and ``nodes`` are ints; for every start they are
    ``(rows, cols)`` int64 arrays indexed by start square. ``complete`` is
    False when some search hit its node budget, making its count a lower
    bound. A start whose count was mapped from a symmetric start it was
    not searched from shows 0 nodes. ``pruned``: the search cut branches
    that cannot finish a tour; ``depth`` and ``units``: the split into work
    units (see ``knight.counting.dfs``).

    ``method`` is the engine: ``dfs`` (the search above) or ``dp`` (the
    frontier dynamic program, ``knight.counting.dp``), which places no nodes
    (``nodes`` is 0) and reports its own work instead: ``states_peak``,
    the most frontier states its table held after a step; ``transitions``,
    successor states emitted into the table (a hash insertion each);
    ``merges``, those that landed on a state already there; ``runs``, DP
    runs (one per symmetry class of starts, or one for closed tours).
    ``ruled_out``: why the theorems leave no tour on the board (the
    existence theorems, with their source), when the count was answered by
    them, 0 from every start with no work; "" when an engine counted.
    """

    rows: int
    cols: int
    start: tuple | None
    closed: bool
    budget: int
    tours: object
    nodes: object
    complete: bool
    seconds: float
    pruned: bool = False
    depth: int = 0
    units: int = 0
    method: str = "dfs"
    states_peak: int = 0
    transitions: int = 0
    merges: int = 0
    runs: int = 0
    ruled_out: str = ""

    def _repr_svg_(self):
        """Every start's count drawn, for Jupyter (``knight.drawing.notebook_svg``)."""
        from knight.drawing import notebook_svg

        return notebook_svg(self)

    @property
    def total_tours(self):
        return int(np.sum(self.tours))

    @property
    def total_nodes(self):
        return int(np.sum(self.nodes))
