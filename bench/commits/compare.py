"""Tell whether a change made any search slower (make bench-compare BASE=<rev>).

Checks BASE out into a temporary git worktree (removed afterwards), starts
one worker process per side, each importing its own tree's ``knight``, and
runs every workload of bench/guard/workloads.py on both sides interleaved for
several rounds. Prints each workload's throughput ratio (this tree's nodes
per CPU second over BASE's, median of the rounds) with the middle half of the rounds as its
spread, and exits 1 when a ratio is below 1 - threshold.

``--head REV`` compares against another revision instead of the working
tree; ``--base-python`` and ``--head-python`` run a side under another
interpreter, which is how to A/B a numba or llvmlite upgrade.
"""

import sys
from contextlib import ExitStack

from bench import command
from bench.command import Parser
from bench.guard.speed_check import THRESHOLD, append_markdown
from bench.guard.workloads import WORKLOADS
from bench.timing import distinct_sides, paired
from bench.timing.revisions import ROOT, checkout, commit_of, interleaved, interpreter

ROUNDS = 15


def _timed(samples):
    """The workloads both sides ran, in their order."""
    return [search for search in WORKLOADS if search.key in samples["base"]]


def table(samples, threshold):
    lines = [f"{'workload':<50} {'base Mn/cpu-s':>13} {'head Mn/cpu-s':>13} {'ratio':>6} {'middle half':>11}  verdict"]
    worst = float("inf")
    for search in _timed(samples):
        base, head = samples["base"][search.key], samples["head"][search.key]
        ratios = paired.throughput_ratios(head, base)
        low, high = ratios.middle_half
        work = "" if base[0].nodes == head[0].nodes else f"  (nodes {base[0].nodes} -> {head[0].nodes})"
        lines.append(
            f"{search.key:<50} {paired.median_rate(base) / 1e6:>13.1f} {paired.median_rate(head) / 1e6:>13.1f} "
            f"{ratios.median:>6.3f} {f'{low:.3f}-{high:.3f}':>11}  {paired.verdict(ratios.median - 1, threshold)}{work}"
        )
        worst = min(worst, ratios.median)
    return "\n".join(lines), worst


def markdown(samples, threshold, title):
    """The comparison as a Markdown table, for a CI job summary."""
    lines = [
        f"### {title}",
        "",
        "| workload | base Mn/cpu-s | head Mn/cpu-s | ratio | middle half | verdict |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for search in _timed(samples):
        base, head = samples["base"][search.key], samples["head"][search.key]
        ratios = paired.throughput_ratios(head, base)
        low, high = ratios.middle_half
        lines.append(
            f"| `{search.key}` | {paired.median_rate(base) / 1e6:.1f} | {paired.median_rate(head) / 1e6:.1f} | "
            f"{ratios.median:.3f} | {low:.3f}-{high:.3f} | {paired.verdict(ratios.median - 1, threshold)} |"
        )
    return "\n".join(lines) + "\n\n"


def compare(base, head, rounds, pythons):
    """Interleaved samples of both sides (``head`` None means the working
    tree), and ``{workload: why}`` for those a side cannot run (an older
    knight may lack a later method): left out."""
    with ExitStack() as stack:
        trees = {"base": stack.enter_context(checkout(base))}
        trees["head"] = ROOT if head is None else stack.enter_context(checkout(head))
        samples, untimed = interleaved(trees, pythons, WORKLOADS, rounds)
        return samples, {key: why for failed in untimed.values() for key, why in failed.items()}


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.commits.compare", description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the revision to compare against, e.g. HEAD~1 or main")
    parser.add_argument("--head", help="a revision for the other side; default: the working tree")
    parser.add_argument("--rounds", default=str(ROUNDS), help="interleaved rounds per workload")
    parser.add_argument("--threshold", default=str(THRESHOLD), help="largest allowed slowdown (0.25 = 25%%)")
    parser.add_argument("--base-python", default=sys.executable, help="interpreter for the BASE side")
    parser.add_argument("--head-python", default=sys.executable, help="interpreter for the other side")
    parser.add_argument(
        "--markdown", metavar="PATH", help="also append the table as Markdown to PATH (e.g. $GITHUB_STEP_SUMMARY)"
    )
    args = parser.parse_args(argv)
    args.rounds, args.threshold = command.rounds(args.rounds), command.threshold(args.threshold)
    pythons = {"base": interpreter(args.base_python), "head": interpreter(args.head_python)}
    head = None if args.head is None else commit_of(args.head)
    distinct_sides.refuse_same(commit_of(args.base), head, ("BASE", "the working tree" if head is None else "HEAD"))
    samples, missing = compare(args.base, args.head, args.rounds, pythons)
    report, worst = table(samples, args.threshold)
    title = f"A/B: {args.head or 'working tree'} over {args.base}, {args.rounds} interleaved rounds"
    append_markdown(args.markdown, markdown(samples, args.threshold, title))
    print(
        f"base {args.base} vs head {args.head or 'working tree'}: "
        f"ratio = head nodes per CPU second / base's, {args.rounds} interleaved rounds"
    )
    print(report)
    for key, why in missing.items():
        print(f"left out, a side cannot run it: {key} ({why})")
    if worst < 1 - args.threshold:
        print(f"\nFAIL: a workload is more than {args.threshold:.0%} slower than at {args.base}")
        return 1
    print(f"\npass: no workload is more than {args.threshold:.0%} slower than at {args.base}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
