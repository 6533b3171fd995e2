"""Run the speed guard on this tree against a base revision in one run (make bench-check).

Nothing measured elsewhere is compared: a ratio recorded on one machine
moved by a quarter on another of the same kind with no change made
(journal: "Why a stored ratio no longer gates"). Three checks:

1. nodes: the exact node counts of results/baseline/nodes.json
   (bench/guard/node_baseline.py); they are the same on every machine;
2. instructions: the instruction-sized twin of each workload
   (``INSTRUCTION_WORKLOADS``) counted under callgrind for BASE and for this
   tree, both at once (bench/guard/instructions.py); more than
   ``INSTRUCTION_THRESHOLD`` more instructions is SLOWER;
3. time: the guard's ``WORKLOADS`` in CPU time, one worker process per side,
   interleaved round by round (bench/timing/revisions.py), in ``PROCESS_PAIRS``
   fresh sets of processes; the change is the mean of the sets' median
   ratios, and more than ``TIME_THRESHOLD`` more time is SLOWER. One set of
   processes can sit apart for a whole run while its rounds agree (the same
   tree on both sides; a workload whose instructions had not moved:
   journal: "Two pairs of processes"); a slower kernel is
   slower in every set, and the sets' offsets average out. A workload
   whose time reads over the limit is timed again in as many fresh sets,
   and decided on all of them (``retime_over_limit``): a 9 ms workload
   read +26% in CI with its instructions unmoved, and a slower kernel stays
   slower in the sets that follow.

A row of the table is a workload and its twin: the same kernel and path.

The self-test rides on the same run: a third side, this tree again with a
plant, is measured beside the other two. Its instructions: one workload
(``INSTRUCTION_PLANT``) does ``PLANTED_WORK`` more work inside the counted
window (bench/timing/instruction_worker.py); its time: every workload
spins ``PLANTED_TIME`` longer (bench/timing/ab_worker.py). Each must read
SLOWER, through the real measuring path, or the check fails.

BASE is ``--base REV``, by default the last commit that changed
results/baseline/ (``default_base``): `make baseline` rewrites
results/baseline/base.json, so the commit that records a deliberate change
is the one later commits are held to. On a branch, ``--base $(git
merge-base HEAD main)`` is a pull request's view.

Where valgrind or a C compiler is missing, one line says so and the time
check alone decides.
"""

import json
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from bench import command, repo_paths
from bench.command import Parser
from bench.guard import instructions, node_baseline
from bench.guard.speed_check import THRESHOLD, append_markdown
from bench.guard.workloads import INSTRUCTION_WORKLOADS, PAIRS, WORKLOADS
from bench.timing import distinct_sides, paired
from bench.timing.revisions import ROOT, checkout, commit_of, describe, git, interleaved, interpreter
from knight import InvalidArgument

# Counts of one revision repeat from run to run, at rest and with the
# other core busy, within a small fraction of a per cent (journal: "bench/'s
# comments"): 2% is many times that, and a kernel doing 3% more
# work is caught.
INSTRUCTION_THRESHOLD = 0.02
# CPU-time ratios of the same code move under load by well under a
# quarter (journal: "What the check's design rests on"): the reference
# ratios' 25%
TIME_THRESHOLD = THRESHOLD
# 3 sets of 5 rounds: as many rounds as one set of 15 took, and a third of
# the variance of one set's offset (journal: "Two pairs of processes")
PROCESS_PAIRS = 3
ROUNDS = 5
# The self-test's plants, each in one kernel: 40% more time in the timed
# backtrack, and some 3% more instructions in its twin: 2.5% more nodes
# searched, plus the set-up of the call that searches them (what the plant
# reads: journal, "What the check's design rests on"). A time plant near
# the limit read on both sides of it in CI (journal: "The time plant's
# margin"): a plant within the noise of the limit fails the
# self-test by chance.
TIME_PLANT = WORKLOADS[0].key
PLANTED_TIME = 0.40
INSTRUCTION_PLANT = INSTRUCTION_WORKLOADS[0].key
PLANTED_WORK = 0.025
BASE_RECORD = repo_paths.BASELINE / "base.json"
LEFT_OUT, BROKEN = "left out", "FAILED"


def default_base(repository=ROOT, record=BASE_RECORD):
    """The last commit that changed results/baseline/, or InvalidArgument.

    A shallow or grafted clone is refused: its oldest commit reads as the
    one that added every file, so it would be taken for the base. When the
    working tree holds just what that commit holds (the commit that
    recorded the baseline, checked out), the base is the commit the
    baseline was recorded on top of (base.json's "on top of"): the tree
    against itself would check nothing."""
    folder = Path(record).parent.relative_to(repository)
    if distinct_sides.is_shallow(repository):
        raise InvalidArgument(
            f"a shallow clone cannot tell which commit last changed {folder}/: {distinct_sides.UNSHALLOW}"
        )
    listed = git("log", "-1", "--format=%H", "--", str(folder), repository=repository).stdout.strip()
    if not listed:
        raise InvalidArgument(f"no commit changed {folder}/: name the base with BASE=<rev>")
    distinct_sides.refuse_grafted([listed], f"the commits that changed {folder}/", repository)
    if distinct_sides.same_as_working_tree(listed, repository):
        return _recorded_on_top_of(listed, record, repository)
    return listed


def _recorded_on_top_of(listed, record, repository):
    """The commit that base.json says the baseline of ``listed`` was recorded on top of."""
    shown = git("show", f"{listed}:{Path(record).relative_to(repository)}", check=False, repository=repository)
    try:
        on_top_of = json.loads(shown.stdout)["on top of"]
        return commit_of(on_top_of, repository)
    except (ValueError, KeyError, TypeError, InvalidArgument):
        raise InvalidArgument(
            f"this tree is {listed[:12]}, the commit that recorded the baseline, and its base.json names "
            "no commit it was recorded on top of: name the base with BASE=<rev>"
        ) from None


def record_base(path=BASE_RECORD):
    """Mark the baseline as recorded now (`make baseline`): the commit that
    commits this file is the base later commits are held to."""
    from knight.harness_api import strict_json

    on_top_of = git("rev-parse", "HEAD").stdout.strip()
    recorded = {
        "what": "the commit that last changed results/baseline/ is the default BASE of bench/guard/base_check.py",
        "recorded": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "on top of": on_top_of,
    }
    path.write_text(strict_json.dumps(recorded, indent=2) + "\n")
    print(f"wrote {path}: commit it, and that commit is bench-check's base")
    return 0


def pairs(text=None):
    """The pairs whose timed workload or twin has ``text`` in its name (all
    when None), or InvalidArgument listing the names."""
    chosen = [pair for pair in PAIRS if text is None or any(text in search.key for search in pair)]
    if not chosen:
        names = "; ".join(search.key for pair in PAIRS for search in pair)
        raise InvalidArgument(f"no workload's name contains {text!r}; the names: {names}")
    return chosen


@dataclass(frozen=True)
class Row:
    """One workload and its twin: nodes, CPU time and instructions on both sides."""

    workload: str
    twin: str
    nodes: tuple = (None, None)
    twin_nodes: tuple = (None, None)
    instructions: tuple = (None, None)
    milliseconds: tuple = (None, None)
    time_ratios: tuple = ()  # paired.Ratios, one per set of processes
    missing: str = ""
    broken: str = ""

    @property
    def instruction_change(self):
        base, head = self.instructions
        return None if base is None or head is None else head / base - 1

    @property
    def time_change(self):
        """The mean over the sets of processes of each set's median ratio, less one."""
        if not self.time_ratios:
            return None
        return statistics.fmean(ratios.median for ratios in self.time_ratios) - 1

    def verdict(self, instruction_threshold=INSTRUCTION_THRESHOLD, time_threshold=TIME_THRESHOLD):
        if self.broken:
            return BROKEN
        if self.missing:
            return LEFT_OUT
        limits = ((self.instruction_change, instruction_threshold), (self.time_change, time_threshold))
        changes = [(change, limit) for change, limit in limits if change is not None]
        if any(change > limit for change, limit in changes):
            return paired.SLOWER
        return paired.FASTER if any(change < -limit for change, limit in changes) else paired.OK


def time_ratios(base, head):
    """Per round, head's CPU time per node over base's."""
    return paired.Ratios(
        tuple(b.nodes_per_cpu_second / h.nodes_per_cpu_second for b, h in zip(base, head, strict=True))
    )


def _median_ms(sets):
    """The median CPU milliseconds of every round of every set of processes."""
    return 1e3 * statistics.median(outcome.cpu_seconds for outcomes in sets for outcome in outcomes)


def _failure(side, keys, counted, untimed):
    """Why ``side`` could not run one of ``keys``, by its count or its timing, or ''."""
    for key in keys:
        count = (counted or {}).get(side, {}).get(key)
        why = (count.error if count else "") or untimed.get(side, {}).get(key, "")
        if why:
            return why
    return ""


def rows(chosen, timed, counted, untimed, head="head", twin_key=lambda key: key, base_side="base"):
    """A Row per pair of ``chosen`` from the time samples ``timed`` (a
    side -> key -> Outcomes per set of processes), the counts ``counted`` (side -> key -> Counted, None
    when instructions were not counted) and ``untimed`` (side -> key -> why
    it could not run), ``head`` the side read as head (``twin_key`` names
    its count of a twin) against ``base_side``. A pair head cannot run is broken; one only base
    cannot run, left out."""
    made = []
    for search, twin in chosen:
        keys = (search.key, twin.key)
        broken = _failure(head, keys, counted, untimed)
        missing = _failure(base_side, keys, counted, untimed)
        fields = {}
        if not (broken or missing) and timed and search.key in timed[0].get(head, {}):
            base, ours = ([s[side][search.key] for s in timed] for side in (base_side, head))
            fields = dict(
                nodes=(base[0][0].nodes, ours[0][0].nodes),
                milliseconds=(_median_ms(base), _median_ms(ours)),
                time_ratios=tuple(map(time_ratios, base, ours)),
            )
        ours = (counted or {}).get(head, {}).get(twin_key(twin.key))
        if ours is not None and not (broken or missing):
            theirs = counted[base_side][twin.key]
            fields["instructions"] = (theirs.median, ours.median)
            fields["twin_nodes"] = (theirs.outcome.nodes, ours.outcome.nodes)
        made.append(Row(search.key, twin.key, missing=missing, broken=broken, **fields))
    return made


def _nodes(pair):
    base, head = pair
    return "-" if head is None else (str(head) if base == head else f"{base}->{head}")


def _number(value, form):
    return "-" if value is None else format(value, form)


HEADINGS = (
    "workload / its twin counted",
    "nodes",
    "cpu ms base",
    "head",
    "change",
    "instr base",
    "instr head",
    "change",
)
WIDTHS = (52, 15, 11, 7, 7, 13, 13, 8)


def _line(cells):
    return " ".join(f"{c:<{w}}" if i < 2 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, WIDTHS, strict=True)))


def _cells(row):
    """The row's two lines of cells: the timed workload's, then its twin's."""
    (base_ms, head_ms), (base_ir, head_ir) = row.milliseconds, row.instructions
    timed = (row.workload, _nodes(row.nodes), _number(base_ms, ".2f"), _number(head_ms, ".2f"))
    counted = (f"  {row.twin}", _nodes(row.twin_nodes), "", "", "", _number(base_ir, ","), _number(head_ir, ","))
    return (*timed, _number(row.time_change, "+.1%"), "", "", ""), (*counted, _number(row.instruction_change, "+.2%"))


def table(made):
    """The check's one table: a workload's time on one line, its twin's
    instructions and the verdict on the next."""
    lines = [f"{_line(HEADINGS)}  verdict"]
    for row in made:
        timed, counted = _cells(row)
        lines += [_line(timed).rstrip(), f"{_line(counted)}  {row.verdict()}"]
    lines += [
        f"{row.workload}: {row.verdict()} ({row.broken or row.missing})" for row in made if row.broken or row.missing
    ]
    return "\n".join(lines)


def markdown(made, title):
    lines = [
        f"### {title}",
        "",
        "| workload | twin counted | nodes | cpu ms base | head | change | instr base | instr head | change "
        "| verdict |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in made:
        timed, counted = _cells(row)
        verdict = row.verdict()
        shown = verdict if verdict == paired.OK else f"**{verdict}**"
        cells = (f"`{row.workload}`", f"`{row.twin}`", timed[1], *timed[2:5], *counted[5:8], shown)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n"


def check_nodes():
    """The exact layer first: True when every stored node count holds."""
    lines = node_baseline.differences(node_baseline.load(), node_baseline.compute())
    print("\n".join(lines) if lines else f"nodes: no differences from {node_baseline.BASELINE.name}")
    return not lines


def _time_sides(base_tree, searches, rounds, python, sets=PROCESS_PAIRS):
    """The time samples of base, head and the planted head on ``searches``,
    one side -> key -> Outcomes per set of fresh worker processes
    (``interleaved``, a process a side), and what each side could not run."""
    trees = {"base": base_tree, "head": ROOT, "planted": ROOT}
    plants = {"planted": {"key": TIME_PLANT, "fraction": PLANTED_TIME}}
    timed = []
    for _ in range(sets):
        samples, untimed = interleaved(trees, dict.fromkeys(trees, python), searches, rounds, plants)
        timed.append(samples)
    return tuple(timed), untimed


def measure(base_tree, chosen, rounds, python):
    """Time samples and what each side could not run (side -> key -> why)
    of base, head and the planted head; instruction counts of base and head
    (the plant's too), None where they cannot be counted here, with why."""
    began = time.perf_counter()
    timed, untimed = _time_sides(base_tree, [search for search, _ in chosen], rounds, python)
    twins = tuple(twin for _, twin in chosen)
    plant = {"key": INSTRUCTION_PLANT, "fraction": PLANTED_WORK}
    jobs = {"base": instructions.Job(base_tree, twins), "head": instructions.Job(ROOT, twins, plant)}
    print(f"timed ({time.perf_counter() - began:.0f} s)")
    try:
        return timed, untimed, instructions.count(jobs, python=python), ""
    except instructions.InstructionsUnavailable as why:
        return timed, untimed, None, str(why)
    except instructions.CountFailed as why:
        # never a silent pass: the table says the count is missing, and the check fails
        return timed, untimed, None, f"FAILED: {why}"


def _over_limit(row):
    return row.time_change is not None and row.time_change > TIME_THRESHOLD


def _plant_row(pair, timed, untimed):
    """The time plant's row: the planted side read against this tree unplanted."""
    (row,) = rows([pair], timed, None, untimed, head="planted", base_side="head")
    return row


def retime_over_limit(base_tree, chosen, timed, untimed, rounds, python):
    """The workloads of ``chosen`` whose time reads over ``TIME_THRESHOLD``
    (this tree against base, or the plant against this tree) timed again in
    ``PROCESS_PAIRS`` more sets of fresh processes: ``(timed_for, keys)``,
    ``timed_for(key)`` the sets a workload is decided on (all of them for
    the keys re-timed) and the keys re-timed."""
    over = [
        pair[0]
        for pair in chosen
        if _over_limit(rows([pair], timed, None, untimed)[0])
        or (pair[0].key == TIME_PLANT and _over_limit(_plant_row(pair, timed, untimed)))
    ]
    if not over:
        return lambda key: timed, []
    more, _ = _time_sides(base_tree, over, rounds, python)
    # a workload the second time could not run on some side is decided on the first sets alone
    keys = sorted(search.key for search in over if all(search.key in side for sides in more for side in sides.values()))
    return (lambda key: timed + more if key in keys else timed), keys


def decided_rows(chosen, timed_for, counted, untimed, **options):
    """``rows`` of ``chosen``, each workload's time from ``timed_for(key)``."""
    return [rows([pair], timed_for(pair[0].key), counted, untimed, **options)[0] for pair in chosen]


def self_test(chosen, timed, counted, untimed):
    """Lines saying whether each plant was caught, and whether all were.

    A plant is read against this tree unplanted, measured in the same run
    (not against the base): the plant is then the only difference, and a
    head legitimately faster or slower than its base does not move it (read
    against the base, a head faster than its base hid part of the time
    plant: journal, "bench/'s comments")."""
    lines, caught = [], True
    planted = [pair for pair in chosen if pair[1].key == INSTRUCTION_PLANT]
    if counted is not None and planted:
        (row,) = rows(planted, {}, counted, untimed, twin_key=instructions.planted, base_side="head")
        found = row.instruction_change is not None and row.instruction_change > INSTRUCTION_THRESHOLD
        caught &= found
        lines.append(
            _caught("instructions", f"{PLANTED_WORK:.1%} more nodes", INSTRUCTION_PLANT, row.instruction_change, found)
        )
    elif counted is not None:
        lines.append(f"self-test, instructions: not run ({INSTRUCTION_PLANT} is not among the workloads chosen)")
    planted = [pair for pair in chosen if pair[0].key == TIME_PLANT]
    if planted:
        row = _plant_row(planted[0], timed, untimed)
        found = _over_limit(row)
        caught &= found
        lines.append(_caught("time", f"{PLANTED_TIME:.0%} more CPU time", TIME_PLANT, row.time_change, found))
    else:
        lines.append(f"self-test, time: not run ({TIME_PLANT} is not among the workloads chosen)")
    return lines, caught


def _caught(figure, plant, key, change, found):
    return (
        f"self-test, {figure}: {plant} planted in {key}: {_number(change, '+.2%')}, {'caught' if found else 'MISSED'}"
    )


def run(base, chosen, rounds, python=sys.executable, summary=None):
    began = time.perf_counter()
    commit = commit_of(base)
    distinct_sides.refuse_same(commit, None, ("BASE", "this tree"))
    short, subject, _ = describe(commit)
    print(f"speed guard: this tree against BASE {base} = {short} ({subject[:70]})")
    nodes_hold = check_nodes()
    print(f"nodes checked ({time.perf_counter() - began:.0f} s)")
    with checkout(commit) as base_tree:
        timed, untimed, counted, uncounted = measure(base_tree, chosen, rounds, python)
        timed_for, retimed = retime_over_limit(base_tree, chosen, timed, untimed, rounds, python)
    if uncounted:
        print(f"instructions not counted: {uncounted}; the time check alone decides")
    made = decided_rows(chosen, timed_for, counted, untimed)
    print(table(made))
    print(
        f"cpu ms: medians of {PROCESS_PAIRS} sets of fresh processes x {rounds} interleaved rounds, "
        f"change the mean of the sets' median ratios, limit +{TIME_THRESHOLD:.0%}; "
        f"instr: medians of {instructions.REPEATS} counted calls under callgrind, limit +{INSTRUCTION_THRESHOLD:.0%}"
    )
    if retimed:
        print(f"over the time limit, timed again in {PROCESS_PAIRS} more sets and decided on all: {'; '.join(retimed)}")
    append_markdown(
        summary, markdown(made, f"Speed guard: this tree against {short} ({PROCESS_PAIRS} x {rounds} rounds)")
    )
    lines, caught = self_test(chosen, timed_for(TIME_PLANT), counted, untimed)
    print("\n".join(lines))
    failed = [row for row in made if row.verdict() in (paired.SLOWER, BROKEN)]
    problems = [f"{len(failed)} of {len(made)} workloads slower or broken"] if failed else []
    problems += [] if nodes_hold else ["node counts differ from the baseline"]
    problems += [] if caught else ["the self-test missed a planted slowdown"]
    problems += [uncounted] if uncounted.startswith("FAILED") else []
    took = f"({time.perf_counter() - began:.0f} s)"
    if problems:
        print(f"\nFAIL: {'; '.join(problems)} {took}")
        return 1
    tested = sum("caught" in line for line in lines)
    counted_by = "CPU time alone" if counted is None else "instructions and CPU time"
    print(f"\npass: nothing slower than at {short} by {counted_by}; {tested} of 2 planted slowdowns run, caught {took}")
    return 0


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.guard.base_check", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--base", help="the revision to compare with (default: the last commit that changed results/baseline/)"
    )
    parser.add_argument(
        "--rounds", default=str(ROUNDS), help="interleaved timing rounds per workload in each set of processes"
    )
    parser.add_argument("--python", default=sys.executable, help="the interpreter of both sides")
    parser.add_argument("--markdown", metavar="PATH", help="also append the table as Markdown to PATH")
    parser.add_argument("--workload", help="only the workloads whose name (or twin's) contains this, e.g. 'dp'")
    parser.add_argument("--record-base", action="store_true", help="rewrite results/baseline/base.json (make baseline)")
    args = parser.parse_args(argv)
    if args.record_base:
        return record_base()
    rounds = command.rounds(args.rounds)
    chosen = pairs(args.workload)
    return run(args.base or default_base(), chosen, rounds, interpreter(args.python), args.markdown)


if __name__ == "__main__":
    sys.exit(main())
