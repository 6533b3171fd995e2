"""This module defines the named, frozen results of the public calls.

There is one for a search, a count, a total and a sweep of every width.

Each result holds everything its call measured, so that the command line's
``--json``, the harness and the tests all read the same object.
"""

import dataclasses
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


@dataclass(frozen=True)
class Total:
    """Directed tours from every start together, from one run of the frontier DP.

    Open, each undirected path counts as two directed tours (one from each
    end). Closed, each cycle counts as two directed tours from each of its
    squares. ``method`` is ``dp`` when the DP counted, or ``theory`` when the
    existence theorems answered the board with no run (``ruled_out`` then
    gives their reason, and every measure is zero).

    Parameters
    ----------
    rows, cols : int
        The board.
    closed : bool
        Whether closed tours were counted.
    tours : int
        The directed tours from every start together.
    method : str
        ``dp`` or ``theory``.
    seconds : float
        Wall seconds of the run, compilation excluded.
    transitions : int
        Successor states that the steps emitted.
    states_peak : int
        The most states that the table held after a step.
    states_per_step : tuple of int
        The states held after each step.
    transitions_per_step : tuple of int
        The successors that each step emitted.
    ram_peak_bytes, rss_peak_bytes, disk_peak_bytes : int or None
        This process's peak anonymous memory (sampled), its peak resident
        memory (``VmHWM``), and its spill folders' peak bytes (sampled).
        None on a cluster, whose workers hold the memory and the disk.
    ruled_out : str
        Why the theorems leave no tour, or "" when the DP counted.
    """

    rows: int
    cols: int
    closed: bool
    tours: int
    method: str = "dp"
    seconds: float = 0.0
    transitions: int = 0
    states_peak: int = 0
    states_per_step: tuple = ()
    transitions_per_step: tuple = ()
    ram_peak_bytes: int | None = 0
    rss_peak_bytes: int | None = 0
    disk_peak_bytes: int | None = 0
    ruled_out: str = ""

    def as_dict(self):
        """Return the fields as a dict of JSON types, in their order.

        Returns
        -------
        dict
            Every field; the per-step tuples as lists.
        """
        record = dataclasses.asdict(self)
        record["states_per_step"] = list(self.states_per_step)
        record["transitions_per_step"] = list(self.transitions_per_step)
        return record


@dataclass(frozen=True)
class WidthTotal:
    """The total of one board that an every-width sweep passed.

    Parameters
    ----------
    rows, cols : int
        The board, its long side cut to a width.
    tours : int
        The directed tours from every start together.
    ruled_out : str
        Why the theorems leave no tour on this board, or "". The sweep counts
        such a board too, and finds 0.
    """

    rows: int
    cols: int
    tours: int
    ruled_out: str = ""


@dataclass(frozen=True)
class WidthTotals:
    """The totals of every width of a board, from one run of the frontier DP.

    Parameters
    ----------
    rows, cols : int
        The whole board.
    closed : bool
        Whether closed tours were counted.
    widths : tuple of WidthTotal
        One total a width, the long side cut to 1, 2, ... squares, the whole
        board last.
    method : str
        ``dp``, or ``theory`` when the theorems rule out every width and no
        run was made.
    seconds : float
        Wall seconds of the run, compilation excluded.
    transitions : int
        Successor states that the steps emitted.
    states_peak : int
        The most states that the table held after a step.
    """

    rows: int
    cols: int
    closed: bool
    widths: tuple
    method: str = "dp"
    seconds: float = 0.0
    transitions: int = 0
    states_peak: int = 0

    def as_dict(self):
        """Return the fields as a dict of JSON types.

        Returns
        -------
        dict
            Every field; ``widths`` as a list of dicts.
        """
        record = dataclasses.asdict(self)
        record["widths"] = [dataclasses.asdict(width) for width in self.widths]
        return record
