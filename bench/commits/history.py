"""Time knight's whole call against C's whole call at each commit (make bench-history).

For every commit (default: the last 20 of main that touched knight/), a
temporary worktree and a worker process that imports that commit's knight
run the speed guard's workloads, interleaved round by round with the C
baselines in this process. Each point is a ratio, the commit's nodes per CPU
second over C's, which stays comparable across days and machines where a
time would not. Rows append to a CSV (one per commit x workload x machine);
commits already measured on this machine are skipped, so a rerun measures
only what is new. Then HISTORY.md and history.png are redrawn beside the
CSV (bench/commits/history_report.py).

A workload that a commit cannot run (an old knight may lack a later option)
is recorded as missing with the reason, and the history goes on.
"""

import csv
import statistics
import sys
import time
from contextlib import closing
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path

from bench import command, repo_paths
from bench.command import Parser
from bench.guard import instructions
from bench.guard.references import REFERENCES
from bench.guard.workloads import PAIRS, WORKLOADS
from bench.run_folder import environment
from bench.timing import distinct_sides, paired
from bench.timing.revisions import KnightDoesNotImport, Worker, checkout, commits, describe, interpreter, unrunnable

CSV = repo_paths.RESULTS / "history.csv"
# 9 rounds: with 5, the middle half of a point's rounds was too wide on 2 busy
# cores for a +25% step to be marked; 9 narrowed it enough, at a modest cost
# for each commit (journal: "Speed along the commits")
ROUNDS = 9
DEFAULT_REVS = "main"
DEFAULT_COUNT = 20
TOUCHING = "knight"
OK, MISSING = "ok", "missing"


@dataclass(frozen=True)
class Point:
    """One commit x workload x machine: a row of the history CSV."""

    machine: str
    commit: str
    short: str
    date: str
    subject: str
    workload: str
    status: str
    ratio: float = float("nan")
    low: float = float("nan")
    high: float = float("nan")
    rounds: int = 0
    nodes: int = 0
    c_nodes: int = 0
    python: str = ""
    numba: str = ""
    # the workload's instruction-sized twin counted under callgrind (median of
    # its counted calls; bench/guard/instructions.py), 0 where not counted
    instructions: int = 0
    llvmlite: str = ""
    measured: str = ""
    note: str = ""

    @classmethod
    def from_csv(cls, row):
        types = {field.name: field.type for field in fields(cls)}
        return cls(**{name: _parse(types[name], value) for name, value in row.items() if name in types})


def _parse(kind, text):
    if kind in (float, "float"):
        return float(text) if text != "" else float("nan")
    if kind in (int, "int"):
        return int(text) if text != "" else 0
    return text


def machine_id():
    """Which machine a point was measured on: host name and CPU model."""
    facts = environment.machine()
    return f"{facts['hostname']} / {facts['cpu_model']}"


def read(path):
    """Every Point of a history CSV, or none when it does not exist yet."""
    if not Path(path).exists():
        return []
    with open(path, newline="") as handle:
        return [Point.from_csv(row) for row in csv.DictReader(handle)]


def append(path, points):
    """Add rows to the CSV, writing its header first when it is new."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists() or path.stat().st_size == 0
    with open(path, "a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[field.name for field in fields(Point)])
        if new:
            writer.writeheader()
        writer.writerows(asdict(point) for point in points)


def c_reference():
    """The C baselines' reference, or raise with the reason it is unusable here."""
    reference = next(reference for reference in REFERENCES if reference.name == "c")
    usable, reason = reference.available()
    if not usable:
        raise RuntimeError(f"the C baselines are needed for a history: {reason}")
    return reference


def instruction_counts(tree, searches, python, say=print):
    """``{workload key: instructions}`` of the twins of ``searches`` (those
    that have one) counted for ``tree``; none, said in one line, where
    callgrind cannot count here."""
    twins = {search.key: twin for search, twin in PAIRS if search in searches}
    if not twins:
        return {}
    try:
        counted = instructions.count({"commit": instructions.Job(tree, tuple(twins.values()))}, python=python)
    except (instructions.InstructionsUnavailable, instructions.CountFailed) as why:
        say(f"instructions not counted: {why}")
        return {}
    return {
        key: counted["commit"][twin.key].median
        for key, twin in twins.items()
        if counted["commit"][twin.key].instructions
    }


def measure_commit(commit, rounds, python, reference, searches=WORKLOADS, repository=None, count=True):
    """One Point per search for ``commit`` that ``reference`` supports (the
    DP's workloads have no C): knight's whole call against C's (throughput in
    CPU time, set-up included on both sides) and, with ``count``, its twin's
    instructions, or why it is missing."""
    searches = [search for search in searches if reference.supports(search)]
    short, subject, date = describe(commit, **_at(repository))
    software = environment.software()
    stamp = dict(
        machine=machine_id(),
        commit=commit,
        short=short,
        date=date,
        subject=subject,
        python=software["python"],
        numba=software["numba"],
        llvmlite=software["llvmlite"],
        measured=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )
    counts = {}
    try:
        with checkout(commit, **_at(repository)) as tree:
            with closing(Worker(tree, python)) as worker:
                failed = unrunnable(worker, searches)
                timed = [search for search in searches if search.key not in failed]
                samples = paired.measure({"knight": worker.run, "c": reference.run}, timed, rounds)
            counts = instruction_counts(tree, timed, python) if count else {}
    except (RuntimeError, KnightDoesNotImport) as problem:  # its knight does not import: every workload is missing
        failed, timed = {search.key: str(problem) for search in searches}, []
    points = [Point(**stamp, workload=key, status=MISSING, note=why) for key, why in failed.items()]
    for search in timed:
        ours, theirs = samples["knight"][search.key], samples["c"][search.key]
        ratios = paired.throughput_ratios(ours, theirs)
        low, high = ratios.middle_half
        points.append(
            Point(
                **stamp,
                workload=search.key,
                status=OK,
                ratio=ratios.median,
                low=low,
                high=high,
                rounds=rounds,
                nodes=ours[0].nodes,
                c_nodes=theirs[0].nodes,
                instructions=counts.get(search.key, 0),
            )
        )
    order = [search.key for search in searches]
    return sorted(points, key=lambda point: order.index(point.workload))


def _at(repository):
    return {} if repository is None else {"repository": repository}


def to_measure(listed, known, machine):
    """The commits of ``listed`` not yet measured on ``machine``."""
    done = {point.commit for point in known if point.machine == machine}
    return [commit for commit in listed if commit not in done]


def run(listed, path, rounds, python, say=print, count=True):
    """Measure the commits of ``listed`` missing from ``path``; return the seconds taken."""
    todo = to_measure(listed, read(path), machine_id())
    say(f"{len(listed)} commits, {len(listed) - len(todo)} already measured on this machine, {len(todo)} to measure")
    reference = c_reference() if todo else None
    began = time.perf_counter()
    for number, commit in enumerate(todo, 1):
        started = time.perf_counter()
        points = measure_commit(commit, rounds, python, reference, count=count)
        append(path, points)
        say(_progress_line(number, len(todo), points, time.perf_counter() - started))
    return time.perf_counter() - began


def _progress_line(number, total, points, seconds):
    timed = [point.ratio for point in points if point.status == OK]
    missing = len(points) - len(timed)
    summary = f"median whole call / C's whole call {statistics.median(timed):.3f}" if timed else "nothing timed"
    extra = f", {missing} missing" if missing else ""
    return f"[{number}/{total}] {points[0].short} {summary}{extra} ({seconds:.0f} s)  {points[0].subject[:60]}"


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.commits.history", description=__doc__.split("\n")[0])
    default = f"the last {DEFAULT_COUNT} commits of {DEFAULT_REVS}"
    parser.add_argument("revs", nargs="?", help=f"git range, e.g. v1..main; default: {default}")
    parser.add_argument("--csv", type=Path, default=CSV, help="the file to append to (default results/history.csv)")
    parser.add_argument("--rounds", default=str(ROUNDS), help="interleaved rounds per workload and commit")
    parser.add_argument("--touching", default=TOUCHING, help="only commits that change this path ('' for all)")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the workers")
    parser.add_argument("--no-measure", action="store_true", help="only redraw HISTORY.md and the figure from the CSV")
    parser.add_argument("--no-instructions", action="store_true", help="time only, no count under callgrind")
    args = parser.parse_args(argv)
    args.rounds, args.python = command.rounds(args.rounds), interpreter(args.python)
    paths = (args.touching,) if args.touching else ()
    listed = commits(args.revs or DEFAULT_REVS, paths=paths, limit=None if args.revs else DEFAULT_COUNT)
    if not listed:
        touching = f" touching {args.touching}" if paths else ""
        print(f"no commits in {args.revs or DEFAULT_REVS}{touching}", file=sys.stderr)
        return 2
    distinct_sides.refuse_grafted(listed, f"the commits of {args.revs or DEFAULT_REVS}")
    if not args.no_measure:
        seconds = run(listed, args.csv, args.rounds, args.python, count=not args.no_instructions)
        print(f"measured in {seconds:.0f} s")
    from bench.commits import history_report  # matplotlib loads only here: bench.commits.find imports this module

    written = history_report.write(read(args.csv), listed, machine_id(), args.csv.parent)
    print("wrote " + " and ".join(str(path) for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
