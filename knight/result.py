"""This module defines the named, frozen results of the public calls.

There is one for a search, a count, a total and a sweep of every width, and
one for the progress that a count reports while it runs.

Each result holds everything its call measured, so that the command line's
``--json``, the harness and the tests all read the same object.
"""

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from knight.geometry.board import coordinates


@dataclass(frozen=True)
class Result:
    """The outcome of one search.

    ``solve`` returns a ``Result``. The search either finds a tour, proves
    that no tour starts from ``start``, or stops early. ``status`` says which.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns.
    start : tuple of int
        The 0-based ``(row, col)`` that the search started from.
    method : str
        The search that ran: ``backtrack``, ``warnsdorff`` or ``greedy``.
    closed : bool
        Whether the search asked for a closed tour.
    budget : int
        The most nodes that the search could place before it gave up.
    status : str
        ``found`` when ``tour`` holds a tour. ``none`` when the search
        exhausted every path from ``start``, so that no tour starts there.
        ``budget`` when the search gave up after ``budget`` nodes.
        ``dead-end`` when the greedy search got stuck after ``nodes`` squares.
    nodes : int
        The nodes (squares placed) that the search visited.
    seconds : float
        The wall seconds of the search alone. Compilation is not included.
    tour : numpy.ndarray or None, default None
        The squares of the tour in visit order, each a 0-based index
        ``row * cols + col``. None when the search found no tour.
    tiebreak : str, default "first"
        How Warnsdorff's rule ordered squares with equally few onward moves.

    Examples
    --------
    >>> import knight
    >>> result = knight.solve(5, 5)
    >>> result.status, result.method, result.nodes
    ('found', 'warnsdorff', 25)
    >>> knight.solve(4, 4, method="backtrack").status
    'none'
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
        """Whether the search found a tour.

        Returns
        -------
        bool
            True when ``status`` is ``found``, and False otherwise.

        Examples
        --------
        >>> import knight
        >>> knight.solve(5, 5).found
        True
        >>> knight.solve(4, 4, method="backtrack").found
        False
        """
        return self.status == "found"

    def _repr_svg_(self):
        """The tour drawn, for Jupyter (``knight.drawing.notebook_svg``)."""
        from knight.drawing import notebook_svg

        return notebook_svg(self)

    def coordinates(self):
        """Return the tour as 0-based ``(row, col)`` pairs.

        Returns
        -------
        numpy.ndarray or None
            An ``(n, 2)`` array of the squares in visit order, one
            ``(row, col)`` pair a row. None when the search found no tour.

        Examples
        --------
        >>> import knight
        >>> knight.solve(5, 5).coordinates()[:3]
        array([[0, 0],
               [1, 2],
               [0, 4]])
        >>> print(knight.solve(4, 4, method="backtrack").coordinates())
        None
        """
        if self.tour is None:
            return None
        return coordinates(self.cols, self.tour)


@dataclass(frozen=True)
class Count:
    """The exact count of tours from one start square, or from every start square.

    ``count_tours`` returns a ``Count``. For one start, ``tours`` and
    ``nodes`` are ints. For every start, they are ``(rows, cols)`` int64
    arrays indexed by the start square. Two engines count. The depth-first
    search (``dfs``) places nodes. The frontier dynamic program (``dp``)
    places none and reports its own work in ``states_peak``,
    ``transitions``, ``merges`` and ``runs``.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns.
    start : tuple of int or None
        The 0-based ``(row, col)`` counted from, or None for every start.
    closed : bool
        Whether only closed tours were counted.
    budget : int
        The most nodes that one DFS work unit could place. The budget is 0
        for the DP, which places no nodes.
    tours : int or numpy.ndarray
        The directed tours from the start, or from each start.
    nodes : int or numpy.ndarray
        The nodes that the DFS placed from the start, or from each start. A
        start whose count was copied from a symmetric start shows 0 nodes.
        The DP shows 0 nodes.
    complete : bool
        Whether every search finished. A search that reached its node
        budget makes the count a lower bound, and ``complete`` False.
    seconds : float
        The wall seconds of the count. Compilation is not included.
    pruned : bool, default False
        Whether the search cut the branches that cannot finish a tour.
    depth : int, default 0
        The number of moves from the start at which the DFS split its work
        into units. The DP has no units, and shows 0.
    units : int, default 0
        The number of work units that the DFS searched.
    method : str, default "dfs"
        The engine that counted: ``dfs`` or ``dp``.
    states_peak : int, default 0
        The most frontier states that the DP's table held after a step.
    transitions : int, default 0
        The successor states that the DP emitted into its table. Each one is
        a hash insertion.
    merges : int, default 0
        The DP's transitions that landed on a state already in the table.
    runs : int, default 0
        The number of DP runs. The DP makes one run for each symmetry class
        of starts, or one run for closed tours.
    ruled_out : str, default ""
        Why the existence theorems leave no tour on the board, with their
        source. No engine ran then, and the count is 0 from every start.
        The string is empty when an engine counted.

    Examples
    --------
    >>> import knight
    >>> count = knight.count_tours(5, 5, start=(0, 0))
    >>> count.tours, count.complete, count.method
    (304, True, 'dfs')
    >>> by_dp = knight.count_tours(5, 5, method="dp")
    >>> by_dp.tours.shape, by_dp.states_peak > 0
    ((5, 5), True)
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
        """The tours summed over every start that was counted.

        Returns
        -------
        int
            The sum of ``tours``. For one start, it equals ``tours``.

        Examples
        --------
        >>> import knight
        >>> knight.count_tours(5, 5).total_tours
        1728
        """
        return int(np.sum(self.tours))

    @property
    def total_nodes(self):
        """The nodes summed over every start that was counted.

        Returns
        -------
        int
            The sum of ``nodes``. The DP places no nodes, so its sum is 0.

        Examples
        --------
        >>> import knight
        >>> knight.count_tours(5, 5, method="dfs").total_nodes > 0
        True
        >>> knight.count_tours(5, 5, method="dp").total_nodes
        0
        """
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
    states_saved : int
        The states that keeping one state for each mirror pair saved,
        summed over the steps: the states held that stand for two, a
        state and its mirror image. 0 on a cluster, which does not count
        them.
    states_saved_per_step : tuple of int
        The same, after each step.
    ram_peak_bytes, rss_peak_bytes, disk_peak_bytes : int or None
        This process's peak anonymous memory (sampled), its peak resident
        memory (``VmHWM``), and its spill folders' peak bytes (sampled).
        None on a cluster, whose workers hold the memory and the disk.
    ruled_out : str
        Why the theorems leave no tour, or "" when the DP counted.

    Examples
    --------
    >>> import knight
    >>> total = knight.count_total(5, 5)
    >>> total.tours, total.method
    (1728, 'dp')
    >>> total.states_peak > 0
    True
    >>> knight.count_total(3, 3).method
    'theory'
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
    states_saved: int = 0
    states_saved_per_step: tuple = ()
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

        Examples
        --------
        >>> import knight
        >>> record = knight.count_total(5, 5).as_dict()
        >>> record["tours"], len(record["states_per_step"])
        (1728, 25)
        """
        record = dataclasses.asdict(self)
        record["states_per_step"] = list(self.states_per_step)
        record["transitions_per_step"] = list(self.transitions_per_step)
        record["states_saved_per_step"] = list(self.states_saved_per_step)
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

    Examples
    --------
    >>> import knight
    >>> width = knight.count_every_width(4, 5).widths[2]
    >>> width.rows, width.cols, width.tours
    (4, 3, 16)
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

    Examples
    --------
    >>> import knight
    >>> sweep = knight.count_every_width(4, 5)
    >>> [(width.cols, width.tours) for width in sweep.widths]
    [(1, 0), (2, 0), (3, 16), (4, 0), (5, 164)]
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

        Examples
        --------
        >>> import knight
        >>> record = knight.count_every_width(3, 4).as_dict()
        >>> record["widths"][-1]
        {'rows': 3, 'cols': 4, 'tours': 16, 'ruled_out': ''}
        """
        record = dataclasses.asdict(self)
        record["widths"] = [dataclasses.asdict(width) for width in self.widths]
        return record


class Progress(NamedTuple):
    """Where a running count stands, as its ``progress`` callable is told.

    Every count calls its ``progress`` with one ``Progress`` after each work
    unit (the DFS) or each step (the DP).

    Parameters
    ----------
    done : int
        The work units or steps done so far.
    total : int
        The work units or steps of the whole count.
    held : int or None, default None
        The states that the DP holds after the step; None for the DFS.
    rates : dict or None, default None
        On a cluster, each worker's transitions a second in the last step;
        None in one process.
    saved : int, default 0
        The states held that each stand for two mirror images.

    Examples
    --------
    >>> import knight
    >>> seen = []
    >>> knight.count_total(3, 4, progress=seen.append).tours
    16
    >>> seen[-1].done == seen[-1].total == 12
    True
    """

    done: int
    total: int
    held: int | None = None
    rates: dict | None = None
    saved: int = 0
