"""The speed guard's and the A/B comparison's tables as Markdown, appended
to a file such as $GITHUB_STEP_SUMMARY."""

from bench.commits import compare
from bench.guard import speed_check
from bench.guard.workloads import WORKLOADS
from bench.timing import paired
from bench.timing.named_search import Outcome


def test_the_check_table_appends_as_markdown(tmp_path):
    rows = [
        speed_check.Row("c", "greedy x", 2e7, paired.Ratios((0.5, 0.51, 0.49)), 1.0),
        speed_check.Row("frozen", "count y", 1e7, paired.Ratios((1.0, 1.0)), None),
    ]
    summary = tmp_path / "summary.md"
    summary.write_text("before\n")
    speed_check.append_markdown(summary, speed_check.markdown(rows, 0.25, "Speed guard"))
    text = summary.read_text()
    assert text.startswith("before\n### Speed guard\n")
    assert "| c | `greedy x` | 20.0 | 0.500 | 0.490-0.510 | 1.000 | -50.0% | **SLOWER** |" in text
    assert "| frozen | `count y` | 10.0 | 1.000 | 1.000-1.000 | - | - | **no baseline** |" in text


def test_nothing_is_written_without_a_path():
    speed_check.append_markdown(None, "ignored")


def test_the_comparison_table_as_markdown():
    def outcomes(cpu_seconds):
        return [Outcome("found", 1_000_000, cpu_seconds, cpu_seconds)] * 3

    samples = {
        side: {search.key: outcomes(seconds) for search in WORKLOADS}
        for side, seconds in (("base", 0.1), ("head", 0.2))
    }
    text = compare.markdown(samples, 0.25, "A/B")
    assert text.count("| 10.0 | 5.0 | 0.500 | 0.500-0.500 | SLOWER |") == len(WORKLOADS)
