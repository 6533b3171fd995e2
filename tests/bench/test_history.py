"""bench-history: rows of the CSV, skipping what was measured, one commit
measured for real (briefly), and the page and figure drawn from a table."""

import sys

import matplotlib.figure

from bench.commits import history, history_report
from bench.timing.named_search import Search
from bench.timing.revisions import git

QUICK = Search("greedy", 200, 200, (0, 0), closed=False, budget=10**8, tiebreak="roth")
# a search C has (greedy), with a tie rule no knight knows: the commit cannot run it
UNKNOWN = Search("greedy", 8, 8, (0, 0), closed=False, budget=1_000, tiebreak="no-such-tiebreak")
# the DP has no C baseline: left out of the history, not missing
DP = Search("dp", 3, 4, (0, 0), closed=False, budget=0)


def point(commit, workload, ratio, machine="m", status=history.OK):
    return history.Point(
        machine=machine,
        commit=commit,
        short=commit[:7],
        date="2026-01-01",
        subject=f"subject, of {commit}",
        workload=workload,
        status=status,
        ratio=ratio,
        low=ratio * 0.99,
        high=ratio * 1.01,
        rounds=5,
    )


def test_rows_survive_the_csv_and_a_rerun_skips_what_this_machine_measured(tmp_path):
    path = tmp_path / "h.csv"
    first = [point("a" * 40, "w", 0.5), point("b" * 40, "w", 0.6, machine="other")]
    history.append(path, first)
    history.append(path, [point("c" * 40, "w", float("nan"), status=history.MISSING)])
    back = history.read(path)
    assert back[:2] == first and back[2].status == history.MISSING
    assert history.to_measure(["a" * 40, "b" * 40, "c" * 40, "d" * 40], back, "m") == ["b" * 40, "d" * 40]


def test_a_commit_is_measured_against_c_and_what_it_cannot_run_is_missing():
    head = git("rev-parse", "HEAD").stdout.strip()
    points = history.measure_commit(head, 1, sys.executable, history.c_reference(), searches=[QUICK, UNKNOWN, DP])
    timed, missing = points
    assert (timed.status, timed.workload, timed.rounds) == (history.OK, QUICK.key, 1)
    assert timed.ratio > 0 and timed.nodes == timed.c_nodes == 200 * 200
    assert missing.status == history.MISSING and "no-such-tiebreak" in missing.note
    assert timed.numba and timed.llvmlite and timed.machine == history.machine_id()


def planted_history():
    commits = [f"{index:040x}" for index in range(12)]
    points = [point(commit, "fast", 1.0 if index < 5 else 2.0) for index, commit in enumerate(commits)]
    points += [point(commit, "flat", 0.7 * (1 + 0.002 * (-1) ** index)) for index, commit in enumerate(commits)]
    points[3 + 12] = point(commits[3], "flat", float("nan"), status=history.MISSING)
    return commits, points


def test_the_step_is_found_at_its_commit_and_named_on_the_page(tmp_path):
    commits, points = planted_history()
    table = history_report.table(points, commits, "m")
    found = history_report.findings(table)
    named = [(f.workload, f.commit, round(f.size, 2), f.outside_noise) for f in found]
    assert named == [("fast", commits[5], 1.0, True)]
    assert isinstance(history_report.figure(table, found, [c[:7] for c in commits]), matplotlib.figure.Figure)
    page, picture = history_report.write(points, commits, "m", tmp_path)
    text = page.read_text()
    assert f"`{commits[5][:7]}` | subject, of {commits[5]}" in text and "+100.0%" in text
    assert "missing" in text and picture.read_bytes().startswith(b"\x89PNG")
