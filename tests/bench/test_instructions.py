"""Instructions counted under callgrind (bench/guard/instructions.py): the
shim's build, the dump parsing, and a real count of a tiny workload, its
repeats and its plant (skipped, with the reason, where valgrind is missing)."""

import shutil
import sys

import pytest

from bench.guard import instructions
from bench.timing.named_search import Search
from bench.timing.revisions import ROOT

TINY = Search("backtrack", 6, 6, (0, 0), closed=True, budget=50_000)

DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
cmd:  python worker.py
part: 3
desc: I1 cache:
desc: Timerange: Basic block 1 - 2
desc: Trigger: Client Request: 4#2
events: Ir
fl=(1) ???
fn=(1) main
0 12
summary: 18446744073593856413
totals: 113748517
"""


def test_a_dump_is_named_by_its_client_request_and_counted_by_its_totals():
    assert instructions.parse_dump(DUMP) == ("4#2", 113748517)


def test_the_dump_at_exit_has_no_name():
    text = DUMP.replace("desc: Trigger: Client Request: 4#2", "desc: Trigger: Program termination")
    assert instructions.parse_dump(text) == (None, 113748517)


def test_a_dump_without_totals_is_refused():
    with pytest.raises(instructions.CountFailed, match="totals"):
        instructions.parse_dump(DUMP.replace("totals: 113748517\n", ""))


def test_the_repeat_spread_and_median():
    counted = instructions.Counted(None, (100, 103, 101))
    assert counted.median == 101 and counted.spread == pytest.approx(0.03)


@pytest.mark.skipif(shutil.which("cc") is None or shutil.which("valgrind") is None, reason="needs cc and valgrind")
def test_the_shim_is_built_once_and_kept_by_its_source_hash():
    built = instructions.shim()
    stamp = built.stat().st_mtime_ns
    assert instructions.shim() == built and built.stat().st_mtime_ns == stamp
    assert built.parent == instructions.SHIM_CACHE and not list(built.parent.glob("*.part"))


def test_without_valgrind_the_reason_is_one_line(monkeypatch):
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    with pytest.raises(instructions.InstructionsUnavailable, match="valgrind is not on PATH"):
        instructions.shim()


# minutes under callgrind: `make bench-check`, which CI runs after make test, counts the
# same real calls twice and fails unless its plant is seen; make test-all runs it here
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed here")
def test_a_real_count_repeats_within_a_tenth_of_a_percent_and_sees_the_plant():
    """Two processes counting the same call agree within 0.1% (the
    check's figure, the median); the plant's 10% more nodes counts more."""
    plant = {"key": TINY.key, "fraction": 0.10}
    jobs = {"a": instructions.Job(ROOT, (TINY,)), "b": instructions.Job(ROOT, (TINY,), plant)}
    counted = instructions.count(jobs, python=sys.executable)
    a, b, planted = counted["a"][TINY.key], counted["b"][TINY.key], counted["b"][instructions.planted(TINY.key)]
    assert a.outcome.nodes == TINY.run().nodes and len(a.instructions) == instructions.REPEATS
    assert abs(b.median / a.median - 1) < 0.001
    assert 0.08 < planted.median / a.median - 1 < 0.2
