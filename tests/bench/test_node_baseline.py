"""The exact layer of the speed guard: today's node counts against the
committed baseline (results/baseline/nodes.json, rewritten by `make baseline`)."""

import pytest

from bench.guard import node_baseline

# enough to see what changed without flooding the terminal
SHOWN = 60


# slow (make test-all): the same check is the first stage of `make
# bench-check` (base_check.check_nodes), which CI runs after make test
@pytest.mark.slow
def test_node_counts_match_the_baseline():
    recorded = node_baseline.load()
    assert recorded, f"no baseline at {node_baseline.BASELINE}: run `make baseline`"
    lines = node_baseline.differences(recorded, node_baseline.compute())
    shown = lines[:SHOWN] + ([f"... and {len(lines) - SHOWN} more"] if len(lines) > SHOWN else [])
    assert not lines, (
        f"{len(lines)} entries differ from {node_baseline.BASELINE.name}; if the change is deliberate, "
        "record it with `make baseline`:\n" + "\n".join(shown)
    )


def test_differences_name_old_and_new_values():
    old = {"a": {"status": "found", "nodes": 5}, "b": {"status": "none", "nodes": 9}}
    new = {"a": {"status": "found", "nodes": 6}, "c": {"status": "found", "nodes": 1}}
    assert node_baseline.differences(old, new) == [
        "changed  a: status=found nodes=5 -> status=found nodes=6",
        "added    c: status=found nodes=1",
        "removed  b: status=none nodes=9",
    ]


def test_matrix_keys_are_unique():
    keys = [case.key for case in node_baseline.matrix()]
    assert len(keys) == len(set(keys))


def test_save_and_load_round_trip(tmp_path):
    outcomes = {"x open 5x5 @0,0 budget=1": {"status": "budget", "nodes": 1}}
    path = tmp_path / "nodes.json"
    node_baseline.save(outcomes, path)
    assert node_baseline.load(path) == outcomes
