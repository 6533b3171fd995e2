"""A DP total stays within its memory budget, whatever the budget.

Each count runs in a fresh process, as a user runs it, so that its peak
anonymous memory (``RssAnon``, sampled by the run itself) is its own. The
budget reaches every buffer and table of a step through the one room that
``memory_model.memory_room`` gives, so a smaller budget sends more of the
run out of core instead of past the budget.
"""

import json
import subprocess
import sys

import pytest

# the published totals of directed open tours: OEIS A165134 on the squares;
# on 6 x 8, twice the 24,964,893,804 undirected paths that Knuth's DYNAHAMP
# counts (OEIS A306281 lists the 6 x n counts)
PUBLISHED = {(6, 6): 6_637_920, (6, 7): 779_938_932, (6, 8): 49_929_787_608, (7, 7): 165_575_218_320}
MIB = 2**20


def _total(rows, cols, memory):
    command = [sys.executable, "-m", "knight", "count", str(rows), str(cols), "--total", "--json"]
    done = subprocess.run([*command, "--memory", str(memory)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("rows", "cols", "budget"),
    [
        pytest.param(6, 6, 256 * MIB, marks=pytest.mark.slow),
        pytest.param(6, 7, 320 * MIB, marks=pytest.mark.slow),
        pytest.param(6, 7, 640 * MIB, marks=pytest.mark.slow),
        pytest.param(7, 7, 512 * MIB, marks=pytest.mark.slow),
        pytest.param(7, 7, 1024 * MIB, marks=pytest.mark.slow),
        pytest.param(7, 7, 2048 * MIB, marks=pytest.mark.slow),
    ],
)
def test_the_peak_anonymous_memory_stays_within_the_budget(rows, cols, budget):
    total = _total(rows, cols, budget)
    assert total["tours"] == PUBLISHED[rows, cols]
    assert 0 < total["ram_peak_bytes"] <= budget, f"peak {total['ram_peak_bytes'] / MIB:.0f} MiB"
    if (rows, cols, budget) == (6, 7, 640 * MIB):
        assert total["disk_peak_bytes"] == 0  # room enough: the run stays in memory


def test_the_least_budget_is_kept_by_going_out_of_core():
    """The budget is obeyed by going out of core, not by luck: under the
    least budget 6 x 8 spills to disk, stays within the budget, and counts
    the published total. (6 x 7 now fits the least budget in memory, so it
    would not show this.)"""
    tight = _total(6, 8, 256 * MIB)
    assert tight["tours"] == PUBLISHED[6, 8]
    assert 0 < tight["ram_peak_bytes"] <= 256 * MIB and tight["disk_peak_bytes"] > 0
