"""This module draws the progress bar of a sweep, with the runs done and the time left.

Runs differ in cost by a factor of a million (a greedy walk on 5x5, a
backtracking search that spends its whole budget), so counting runs would
give a useless time estimate. The bar advances instead by each run's
expected cost, a rough model below; tqdm's rate, averaged over the whole
sweep, then calibrates the model against the machine at hand.
"""

import io
import sys

from tqdm import tqdm

# nodes per second on the project's 2-core machine, from the default sweep
_NODES_PER_S = {"backtrack": 1.0e8, "warnsdorff": 2.0e7, "greedy": 6.0e7}
# solve()'s checks and array set-up around each kernel call
_CALL_S = 3e-5
# building a neighbour table, per square
_SQUARE_S = 2e-8


def _budget_share(run):
    """How likely a search is to spend its whole budget, as seen in the
    default sweep: plain backtracking usually does (past 5x5), Warnsdorff
    rarely on open tours up to 30x30 but often beyond and on closed tours,
    greedy never (it stops after at most one node per square)."""
    if run.method == "backtrack":
        return 1.0
    if run.method == "greedy":
        return 0.0
    if run.closed:
        return 0.4
    return 0.005 if run.rows * run.cols <= 900 else 0.3


def expected_seconds(run, repeats, searched):
    """A rough guess of what ``run`` costs; only ratios between runs matter."""
    if not searched:
        return _CALL_S
    squares = run.rows * run.cols
    share = _budget_share(run)
    nodes = share * run.budget + (1 - share) * min(run.budget, squares)
    return repeats * (_CALL_S + squares * _SQUARE_S + nodes / _NODES_PER_S[run.method])


def _terminal(stream):
    """Whether ``stream`` is an open terminal: a closed or missing stderr (``2>&-``) is not."""
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed, or gone
        return False


class Progress:
    """``with Progress(costs) as bar: ... bar.advance(cost, label)``.

    The bar is drawn on stderr when that is a terminal (or ``enabled`` is
    True and stderr is there at all), never on stdout."""

    def __init__(self, costs, enabled=None):
        self.total_runs = len(costs)
        self.done = 0
        stream = sys.stderr
        shown = _terminal(stream) if enabled is None else enabled and stream is not None
        self._bar = tqdm(
            total=sum(costs),
            file=stream if shown else io.StringIO(),
            disable=not shown,
            smoothing=0,
            mininterval=0.5,
            bar_format="{desc} {percentage:3.0f}%|{bar}| {elapsed} elapsed, about {remaining} left",
            desc=f"run 0/{self.total_runs}",
        )

    def _describe(self, label):
        self._bar.set_description_str(f"run {self.done}/{self.total_runs} {label}".rstrip(), refresh=False)

    def advance(self, cost, label):
        self.done += 1
        self._describe(label)
        self._bar.update(cost)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._bar.close()
