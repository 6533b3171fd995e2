"""Set-up against search: every measurement on tiny boards, and its report."""

from bench.studies.overhead import overhead_study


def test_solve_ratios_cover_every_method_and_size():
    measured = overhead_study.measure_solve((12, 20), repeats=2)
    assert set(measured) == {overhead_study.case_name(method, tiebreak) for method, tiebreak, _ in overhead_study.CASES}
    for by_size in measured.values():
        assert set(by_size) == {"12", "20"}
        for entry in by_size.values():
            # the call's wall time contains the kernel's
            assert entry["wall_over_kernel"]["min"] >= 1
            assert entry["nodes"] >= 1


def test_greedy_repeats_and_plain_count(tmp_path):
    repeats = overhead_study.measure_greedy_repeats(30, 3)
    assert len(repeats["seconds"]) == 3 and repeats["slowest_over_fastest"] >= 1
    count = overhead_study.measure_count(rounds=1, n=4)
    if "missing" not in count:
        # 4x4 has no open tour; the nodes are the whole plain search tree, C's and knight's alike
        assert count["tours"] == 0 and count["nodes"] > 0
        assert count["knight_over_c"]["cpu"]["median"] > 0
    measured = {"solve": overhead_study.measure_solve((12,), 1), "greedy_repeats": repeats, "plain_count": count}
    corners = {"largest": 6, "boards": [{"n": 5}], "kernel_seconds": {"greedy-first": 1.0}, "wall_seconds": 1.2}
    text = "\n".join(overhead_study.section(measured, corners))
    assert "## Set-up against search" in text and "| warnsdorff-roth |" in text
    assert "1.20x" in text and "slowest took" in text
