"""Find the commit that made a workload slower (make bench-find GOOD=<rev> BAD=<rev>).

Bisects the commits from GOOD to BAD by speed, as `asv find` does: each
probe checks a commit out into a temporary worktree, times the workloads in
a worker process that imports its knight, interleaved with the C baselines
in this process, and keeps the ratio (the commit's nodes per CPU second over
C's). A commit is slower when a workload's ratio is below GOOD's by more
than the speed guard's threshold (bench/guard/speed_check.py). Whole calls against C's (throughput ratios), not times,
are what probes compare, so probes minutes apart still compare.

The commits are BAD's first parents back to GOOD, as asv takes them: a
slowdown made on a merged branch is named by its merge commit. It assumes
one slowdown in the range, as bisection does: BAD slower, GOOD
not, and every commit after the culprit slower too. It prints the first
slower commit, or says that BAD is not slower than GOOD. A commit that
cannot run a workload is stepped over.
"""

import sys

from bench import command
from bench.command import Parser
from bench.commits.history import OK, c_reference, measure_commit
from bench.guard import instructions
from bench.guard.base_check import INSTRUCTION_THRESHOLD
from bench.guard.speed_check import THRESHOLD
from bench.guard.workloads import matching
from bench.timing import distinct_sides
from bench.timing.revisions import ROOT, commit_of, commits, describe, git, interpreter
from knight import InvalidArgument

ROUNDS = 5
# what a probe reads: instructions (independent of the load) or time against C
INSTRUCTIONS, TIME = "instructions", "time"


def _nearest_first(lo, hi, mid):
    """Indices strictly between lo and hi, nearest to mid first."""
    return sorted(range(lo + 1, hi), key=lambda index: (abs(index - mid), index))


def first_slower(count, probe, threshold):
    """Index of the first of ``count`` commits whose ratios fell below
    commit 0's by more than ``threshold``, or None when the last did not.

    ``probe(index)`` returns ``{workload: ratio}`` (a workload the commit
    cannot run is left out); it is called once per index at most.
    """
    ratios = {}

    def measured(index):
        if index not in ratios:
            ratios[index] = probe(index)
        return ratios[index]

    good = measured(0)

    def slower(index):
        fell = [key for key, ratio in measured(index).items() if key in good and ratio < good[key] * (1 - threshold)]
        return bool(fell)

    lo, hi = 0, count - 1
    if count < 2 or not slower(hi):
        return None
    while hi - lo > 1:
        for index in _nearest_first(lo, hi, (lo + hi) // 2):
            if measured(index):
                break
        else:
            return hi  # nothing between lo and hi could be timed: hi is the first known slower
        if slower(index):
            hi = index
        else:
            lo = index
    return hi


def prober(listed, searches, rounds, python, repository, say=print, by=TIME):
    """``probe(index)`` for first_slower: ``listed[index]`` measured as
    bench-history measures a commit, read ``by`` its time against C's (the
    ratio) or its instructions (their inverse, so that higher is faster
    either way: a fall beyond 2% is a count about 2% higher)."""
    reference = c_reference()

    def probe(index):
        points = measure_commit(
            listed[index], rounds, python, reference, searches, repository, count=by == INSTRUCTIONS
        )
        if by == INSTRUCTIONS:
            figures = {point.workload: 1 / point.instructions for point in points if point.instructions}
            shown = ", ".join(f"{point.instructions:,}" for point in points if point.instructions)
        else:
            figures = {point.workload: point.ratio for point in points if point.status == OK}
            shown = ", ".join(f"{ratio:.3f}" for ratio in figures.values())
        say(
            f"probe {index + 1}/{len(listed)} {points[0].short}: {by} {shown or 'nothing measured'}  "
            f"{points[0].subject[:60]}"
        )
        return figures

    return probe


def find(good, bad, searches, rounds, threshold, python=sys.executable, repository=ROOT, say=print, by=TIME):
    """The full hash of the first commit after ``good`` up to ``bad`` that is
    slower than ``good``, or None."""
    listed, last = [commit_of(good, repository)], commit_of(bad, repository)
    if git("merge-base", "--is-ancestor", listed[0], last, check=False, repository=repository).returncode != 0:
        raise InvalidArgument(f"{good} is not an ancestor of {bad}: GOOD is the older revision (reversed?)")
    listed += commits(f"{good}..{bad}", repository=repository)
    if len(listed) == 1:
        raise InvalidArgument(f"no commit after {good} up to {bad}: nothing to bisect")
    distinct_sides.refuse_same(listed[0], last, ("GOOD", "BAD"), repository)
    say(f"{len(listed) - 1} commits after {good} up to {bad}; about {len(listed).bit_length() + 1} probes")
    index = first_slower(len(listed), prober(listed, searches, rounds, python, repository, say, by), threshold)
    return None if index is None else listed[index]


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.commits.find", description=__doc__.split("\n")[0])
    parser.add_argument("good", help="a revision with the old speed")
    parser.add_argument("bad", help="a later revision that is slower")
    parser.add_argument("--workload", help="only the workloads whose name contains this, e.g. 'greedy'")
    parser.add_argument("--rounds", default=str(ROUNDS), help="interleaved rounds per probe")
    parser.add_argument(
        "--threshold",
        help=f"a change beyond this is slower (default {THRESHOLD} by time, {INSTRUCTION_THRESHOLD} by instructions)",
    )
    parser.add_argument(
        "--by",
        choices=(INSTRUCTIONS, TIME),
        default=TIME,
        help="what a probe reads: instructions under callgrind (the load does not move them) or time against C",
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter for the workers")
    args = parser.parse_args(argv)
    default = INSTRUCTION_THRESHOLD if args.by == INSTRUCTIONS else THRESHOLD
    args.rounds, args.threshold = (
        command.rounds(args.rounds),
        command.threshold(str(default) if args.threshold is None else args.threshold),
    )
    searches = matching(args.workload)
    if args.by == INSTRUCTIONS:
        instructions.shim()  # InstructionsUnavailable: say so before any probe
    culprit = find(args.good, args.bad, searches, args.rounds, args.threshold, interpreter(args.python), by=args.by)
    if culprit is None:
        print(f"\n{args.bad} is not more than {args.threshold:.0%} slower than {args.good}: nothing to find")
        return 1
    short, subject, date = describe(culprit)
    print(f"\nfirst commit more than {args.threshold:.0%} slower than {args.good}: {culprit}")
    print(f"  {short} {date} {subject}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
