"""Time knight against frozen references, as information only (make bench-ratios).

Each workload's throughput (nodes per CPU second, see bench/timing/paired.py)
is measured against each reference of bench/guard/references.py in the same
run, interleaved, and that ratio is set beside the ratio committed in
results/baseline/ratios.json. It never fails a run: a ratio between
different code moves from one machine to another, by a quarter on a machine of
the same kind with no change made (journal: "Why a stored ratio no longer gates"). The speed guard that
decides is bench/guard/base_check.py, this tree against a base revision.

    python -m bench.guard.speed_check               measure, compare, print the table
    python -m bench.guard.speed_check --record      measure longer, rewrite the ratios
    python -m bench.guard.speed_check --self-test   plant a 2x slowdown; pass if caught

``--workload TEXT`` keeps the workloads whose name contains TEXT; with
``--record`` only their ratios are measured and rewritten, the others kept
as they are (``--record --workload dp``: the DP's row alone).

``KNIGHT_GUARD_PLANT=k`` makes the check's own timed wrapper (``run_knight``)
run each of knight's searches k times and add up their times: a k-times
slowdown planted without touching the production kernels.
"""

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, replace

from bench import command, repo_paths
from bench.command import Parser
from bench.guard.references import REFERENCES
from bench.guard.workloads import WORKLOADS, matching
from bench.run_folder.record import read_json
from bench.timing import paired
from bench.timing.named_search import pin_allocator
from bench.timing.revisions import PLANTS
from knight.harness_api import strict_json

RATIOS = repo_paths.BASELINE / "ratios.json"
# a plant of the guard's, so never passed on to another revision's worker
PLANT = f"{PLANTS}PLANT"
# Back-to-back runs on the shared 2-core machine moved the median ratios
# by a small fraction of this (journal: "bench/'s comments"):
# 25% leaves a wide margin above that and still catches a kernel a third
# slower.
THRESHOLD = 0.25
ROUNDS = 15
RECORD_ROUNDS = 41
SELF_TEST_ROUNDS = 7
NO_BASELINE = "no baseline"
# what a "ratio" of the table is, printed under it: not kernel against kernel
WHAT_THE_RATIO_IS = (
    "ratio: knight's whole call against the reference's whole call, nodes per CPU second, set-up included on "
    "both sides (the references build inputs in NumPy, C allocates scratch inside its call); not kernel against "
    "kernel: make bench's toolchain comparison times kernels like for like"
)


def run_knight(search):
    """knight's side: one search, or ``KNIGHT_GUARD_PLANT`` of them timed as one."""
    repeats = int(os.environ.get(PLANT, "1"))
    outcomes = [search.run() for _ in range(repeats)]
    return replace(
        outcomes[0],
        seconds=sum(outcome.seconds for outcome in outcomes),
        cpu_seconds=sum(outcome.cpu_seconds for outcome in outcomes),
    )


@dataclass(frozen=True)
class Row:
    reference: str
    search: str
    knight_rate: float
    ratios: paired.Ratios
    baseline: float | None

    @property
    def change(self):
        return None if self.baseline is None else self.ratios.median / self.baseline - 1

    def verdict(self, threshold):
        return NO_BASELINE if self.change is None else paired.verdict(self.change, threshold)


def measure(rounds, baseline, workloads=WORKLOADS):
    """One Row per reference and workload of ``workloads`` it supports."""
    rows = []
    for reference in REFERENCES:
        searches = [search for search in workloads if reference.supports(search)]
        if not searches:
            continue
        usable, reason = reference.available()
        if not usable:
            print(f"reference {reference.name} skipped: {reason}")
            continue
        samples = paired.measure({"knight": run_knight, reference.name: reference.run}, searches, rounds)
        for search in searches:
            ours, theirs = samples["knight"][search.key], samples[reference.name][search.key]
            rows.append(
                Row(
                    reference.name,
                    search.key,
                    paired.median_rate(ours),
                    paired.throughput_ratios(ours, theirs),
                    baseline.get(reference.name, {}).get(search.key),
                )
            )
    return rows


def table(rows, threshold):
    """The check's report: one line per kernel workload and reference."""
    lines = [
        f"{'reference':<9} {'workload':<50} {'Mn/cpu-s':>8} {'ratio':>6} {'middle half':>11} "
        f"{'baseline':>8} {'change':>7}  verdict"
    ]
    for row in rows:
        baseline = "-" if row.baseline is None else f"{row.baseline:.3f}"
        change = "-" if row.change is None else f"{row.change:+.1%}"
        low, high = row.ratios.middle_half
        lines.append(
            f"{row.reference:<9} {row.search:<50} {row.knight_rate / 1e6:>8.1f} {row.ratios.median:>6.3f} "
            f"{f'{low:.3f}-{high:.3f}':>11} {baseline:>8} {change:>7}  {row.verdict(threshold)}"
        )
    return "\n".join(lines)


def markdown(rows, threshold, title):
    """The same table as Markdown, for a CI job summary or a run folder."""
    lines = [
        f"### {title}",
        "",
        WHAT_THE_RATIO_IS,
        "",
        "| reference | workload | Mn/cpu-s | ratio | middle half | baseline | change | verdict |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        baseline = "-" if row.baseline is None else f"{row.baseline:.3f}"
        change = "-" if row.change is None else f"{row.change:+.1%}"
        low, high = row.ratios.middle_half
        verdict = row.verdict(threshold)
        shown = verdict if verdict == paired.OK else f"**{verdict}**"
        lines.append(
            f"| {row.reference} | `{row.search}` | {row.knight_rate / 1e6:.1f} | {row.ratios.median:.3f} | "
            f"{low:.3f}-{high:.3f} | {baseline} | {change} | {shown} |"
        )
    return "\n".join(lines) + "\n\n"


def append_markdown(path, text):
    """Append to ``path`` (``$GITHUB_STEP_SUMMARY`` is appended to, never replaced)."""
    if path:
        with open(path, "a") as handle:
            handle.write(text)


def load_ratios(path=RATIOS):
    return read_json(path)["ratios"] if path.exists() else {}


def save_ratios(rows, rounds, path=RATIOS, keep=None):
    """Write the ratios of ``rows``; those of ``keep`` (the ratios file as
    it was) stay where ``rows`` has none."""
    import llvmlite
    import numba

    # kept: those of workloads that still exist
    names = {search.key for search in WORKLOADS}
    ratios = {
        reference: {key: ratio for key, ratio in by_search.items() if key in names}
        for reference, by_search in (keep or {}).items()
    }
    for row in rows:
        ratios.setdefault(row.reference, {})[row.search] = round(row.ratios.median, 4)
    recorded = {
        "what": "knight's nodes per CPU second over each reference's, median of interleaved rounds "
        "(bench/guard/speed_check.py)",
        "rounds": rounds,
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "ratios": ratios,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(strict_json.dumps(recorded, indent=2) + "\n")


@contextmanager
def planted(factor):
    """Set ``KNIGHT_GUARD_PLANT`` for the duration, restoring it after."""
    before = os.environ.get(PLANT)
    os.environ[PLANT] = str(factor)
    try:
        yield
    finally:
        if before is None:
            del os.environ[PLANT]
        else:
            os.environ[PLANT] = before


def check(rounds, threshold, summary=None, workloads=WORKLOADS):
    rows = measure(rounds, load_ratios(), workloads)
    print(table(rows, threshold))
    print(WHAT_THE_RATIO_IS)
    title = f"Speed guard: knight's whole call against each reference's whole call ({rounds} rounds)"
    append_markdown(summary, markdown(rows, threshold, title))
    moved = [row for row in rows if row.verdict(threshold) in (paired.SLOWER, NO_BASELINE)]
    print(
        f"\ninformation: {len(moved)} of {len(rows)} ratios fell by more than {threshold:.0%} from those recorded "
        "(perhaps on another machine) or have none; the guard is `make bench-check`"
    )
    return 0


def self_test(rounds, threshold, summary=None, workloads=WORKLOADS):
    """Plant a 2x slowdown of every kernel; pass only if every row says SLOWER."""
    with planted(2):
        rows = measure(rounds, load_ratios(), workloads)
    print("self-test: every knight search timed twice over (a planted 2x slowdown)")
    print(table(rows, threshold))
    title = "Speed guard self-test: a planted 2x slowdown, every row must read SLOWER"
    append_markdown(summary, markdown(rows, threshold, title))
    missed = [row for row in rows if row.verdict(threshold) != paired.SLOWER]
    if missed:
        print(f"\nFAIL: the check missed the planted slowdown in {len(missed)} of {len(rows)} rows")
        return 1
    print(f"\npass: the check flagged the planted slowdown in all {len(rows)} rows")
    return 0


def record(rounds, threshold, workloads=WORKLOADS):
    """Measure ``workloads`` and write their ratios; a part of the
    workloads keeps the other ratios as recorded."""
    old = load_ratios()
    rows = measure(rounds, old, workloads)
    print(table(rows, threshold))
    partial = len(workloads) < len(WORKLOADS)
    save_ratios(rows, rounds, keep=old if partial else None)
    kept = "; the other ratios kept as they were" if partial else ""
    print(f"\nwrote {RATIOS} ({rounds} interleaved rounds{kept})")
    return 0


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.guard.speed_check", description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--record", action="store_true", help="rewrite results/baseline/ratios.json")
    action.add_argument("--self-test", action="store_true", help="plant a 2x slowdown and require the check to flag it")
    parser.add_argument("--rounds", help="interleaved rounds per workload")
    parser.add_argument("--threshold", help=f"largest allowed fall of a ratio (default {THRESHOLD}: 25%%)")
    parser.add_argument(
        "--markdown", metavar="PATH", help="also append the table as Markdown to PATH (e.g. $GITHUB_STEP_SUMMARY)"
    )
    parser.add_argument(
        "--workload",
        help="only the workloads whose name contains this, e.g. 'dp' (--record: re-record their ratios alone)",
    )
    args = parser.parse_args(argv)
    pin_allocator()
    args.rounds = None if args.rounds is None else command.rounds(args.rounds)
    args.threshold = THRESHOLD if args.threshold is None else command.threshold(args.threshold)
    workloads = matching(args.workload)
    if args.record:
        return record(args.rounds or RECORD_ROUNDS, args.threshold, workloads)
    if args.self_test:
        return self_test(args.rounds or SELF_TEST_ROUNDS, args.threshold, args.markdown, workloads)
    return check(args.rounds or ROUNDS, args.threshold, args.markdown, workloads)


if __name__ == "__main__":
    sys.exit(main())
