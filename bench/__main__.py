"""This module runs a benchmark sweep, records it, draws it and writes its report (``python -m bench``).

With no sweep options it runs the default sweep (``make bench``); ``--quick``
runs the short one (``make bench-quick``); any of --sizes, --shapes,
--methods, --starts, --tours or --tiebreak describes a sweep of your own.
"""

import dataclasses
import math
import sys

from bench import command, repo_paths
from bench.command import EXIT_INTERRUPTED, Parser, parse_boards
from bench.report import run_report, tour_pictures
from bench.run_folder import folders, record
from bench.studies.registry import STUDIES
from bench.sweep import plan, presets, sweep_runner
from knight import InvalidArgument
from knight.harness_api import validate

CUSTOM_BUDGET = 10**6
CUSTOM_SIZES = "5-8"
DEFAULT_REPEATS = 3
_SWEEP_OPTIONS = ("sizes", "shapes", "methods", "starts", "tours", "tiebreak")
# the side of the largest square board the kernels take
LARGEST_SIDE = math.isqrt(validate.MAX_SQUARES)


def parse_sizes(text):
    """``5-8,10,300-2000:100`` as board sides: single sides, ranges A-B
    (both included) and ranges with a step A-B:STEP."""
    sizes = []
    for item in text.split(","):
        item = item.strip()
        span, _, step = item.partition(":")
        # a range's dash follows its first side: "-3" is one side, negative
        low, dash, high = span[1:].partition("-")
        low = span[:1] + low
        if dash and not high:
            raise InvalidArgument(f"size range {item!r} needs a size after the dash")
        # sides checked before a range is expanded: 1-10**12 must not fill memory
        low = validate.integer_text(low, "board size", maximum=LARGEST_SIDE)
        high = validate.integer_text(high, "board size", maximum=LARGEST_SIDE) if dash else low
        step = validate.integer_text(step, "size step", maximum=LARGEST_SIDE) if step else 1
        if high < low:
            raise InvalidArgument(f"size range {item!r} is empty: write the smaller size first")
        sizes += range(low, high + 1, step)
    return sorted(set(sizes))


def parse_shapes(text):
    """``3x4,4x5`` as ``((3, 4), (4, 5))``."""
    return tuple(parse_boards(text))


def _names(text, name, options):
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if not names:
        raise InvalidArgument(f"no {name} given; choose from {', '.join(options)}")
    for item in names:
        validate.choice(item, name, options)
    return names


def build_parser():
    parser = Parser(
        prog="python -m bench",
        description=(
            "Sweep knight's-tour searches over board sizes, start squares and methods; write runs.csv, "
            "meta.json, figures and REPORT.md to a new folder under results/. With no sweep options: "
            "the default sweep (about 4 minutes on 2 cores)."
        ),
    )
    sweep = parser.add_argument_group("a sweep of your own (any of these replaces the default sweep)")
    sweep.add_argument(
        "--sizes", help=f"square boards n x n: 5-8, 5,7,9, 10-100:10 (default {CUSTOM_SIZES} unless --shapes)"
    )
    sweep.add_argument("--shapes", help="rectangles ROWSxCOLS: 3x4,4x5")
    sweep.add_argument("--methods", help=f"comma list of {', '.join(validate.METHODS)} (default all three)")
    sweep.add_argument(
        "--starts",
        help="all | symmetry (one per symmetry class) | corners | 1-based squares 'R,C R,C' (default all)",
    )
    sweep.add_argument("--tours", choices=tuple(plan.TOURS), help="open, closed or both (default open)")
    sweep.add_argument(
        "--tiebreak", help="first, roth or first,roth: Warnsdorff's order among equal degrees (default first)"
    )
    every = parser.add_argument_group("for any sweep")
    every.add_argument("--quick", action="store_true", help="the short sweep of make bench-quick (under a minute)")
    every.add_argument(
        "--budget", help=f"most nodes per search (default {CUSTOM_BUDGET:,}; overrides a preset's budgets)"
    )
    every.add_argument("--repeats", help="timed repeats of each search; median and min are kept (default 3)")
    every.add_argument("--search-impossible", action="store_true", help="search starts that theory rules out, too")
    every.add_argument(
        "--out", default=str(repo_paths.RESULTS), help="where run folders and 'latest' go (default results)"
    )
    for study in STUDIES:
        every.add_argument(f"--no-{study.name}", action="store_true", help=study.skip_help)
    every.add_argument(
        "--no-plots", action="store_true", help="skip the figures and REPORT.md (make plots draws them later)"
    )
    every.add_argument("--heatmaps", help="boards for the heatmap figure, like 6x6,8x8 (default those)")
    every.add_argument(
        "--resume",
        nargs="?",
        const=str(repo_paths.RESULTS / folders.LATEST),
        metavar="FOLDER",
        help="finish an interrupted run (default results/latest); takes no sweep options",
    )
    return parser


def custom_sweep(args):
    budget = _budget(args.budget) if args.budget else CUSTOM_BUDGET
    shapes = ()
    if args.sizes or not args.shapes:
        shapes += presets.squares(parse_sizes(args.sizes or CUSTOM_SIZES))
    if args.shapes:
        shapes += parse_shapes(args.shapes)
    part = plan.Part(
        title="custom sweep",
        shapes=shapes,
        methods=_names(args.methods, "method", validate.METHODS) if args.methods else validate.METHODS,
        starts=args.starts or "all",
        closed=plan.TOURS[args.tours or "open"],
        budget=budget,
        tiebreaks=_names(args.tiebreak, "tiebreak", validate.TIEBREAKS) if args.tiebreak else ("first",),
    )
    return plan.Sweep((part,))


def _budget(text):
    return validate.integer_text(text, "budget", maximum=validate.MAX_INT64)


def sweep_from(args):
    """The sweep the options describe, checked; InvalidArgument if not valid."""
    custom = any(getattr(args, name) is not None for name in _SWEEP_OPTIONS)
    if custom and args.quick:
        raise InvalidArgument(
            "--quick is a preset sweep; it takes no --sizes, --shapes, --methods, --starts, --tours or --tiebreak"
        )
    sweep = custom_sweep(args) if custom else presets.PRESETS["quick" if args.quick else "default"]()
    if args.budget and not custom:
        budget = _budget(args.budget)
        sweep = dataclasses.replace(
            sweep, parts=tuple(dataclasses.replace(part, budget=budget) for part in sweep.parts)
        )
    repeats = DEFAULT_REPEATS
    if args.repeats:
        repeats = validate.integer_text(args.repeats, "repeats", maximum=plan.MAX_REPEATS)
    sweep = dataclasses.replace(sweep, repeats=repeats, search_impossible=args.search_impossible)
    plan.check(sweep)
    return sweep


def prepare(argv):
    """Parse and check everything, then make (or find) the run folder.
    Nothing is searched; InvalidArgument on any bad setting."""
    args = build_parser().parse_args(argv)
    heatmaps = parse_boards(args.heatmaps) if args.heatmaps else None
    if args.resume is not None:
        given = [f"--{name}" for name in (*_SWEEP_OPTIONS, "budget", "repeats") if getattr(args, name) is not None]
        given += [
            option for option, on in (("--quick", args.quick), ("--search-impossible", args.search_impossible)) if on
        ]
        if given:
            raise InvalidArgument(f"--resume finishes the sweep it started, as it was planned; drop {', '.join(given)}")
        folder, _, _ = sweep_runner.load(args.resume)
        # refuse now, in one line, a folder another sweep is writing
        record.RunsFile.open(folder / record.RUNS).close()
        return folder, args, heatmaps
    sweep = sweep_from(args)
    command = ["python", "-m", "bench", *(sys.argv[1:] if argv is None else argv)]
    return sweep_runner.create(sweep, args.out, command, extras=_extras(args)), args, heatmaps


def _extras(args):
    """What a preset sweep runs besides the sweep, sized by the preset:
    each study's setting under its key, None where skipped; None for a
    sweep of your own, which is only what it asks for."""
    if any(getattr(args, name) is not None for name in _SWEEP_OPTIONS):
        return None
    return {study.extra: None if getattr(args, f"no_{study.name}") else study.setting(args.quick) for study in STUDIES}


def _run_extras(folder):
    """Run each study that the run's meta.json planned (a resumed run does
    the same), in the registry's order."""
    extras = sweep_runner.load(folder)[1].get("extras") or {}
    for study in STUDIES:
        setting = extras.get(study.extra)
        if setting:
            print(f"bench: {study.announcement.format(setting=setting)}", file=sys.stderr)
            study.run(folder, setting)
            sweep_runner.study_finished(folder, study.extra)


@command.ends_in_one_line
def main(argv=None):
    """Run a benchmark sweep, record its runs and write its report, as ``python -m bench`` does.

    The sweep writes runs.csv, meta.json, the figures, REPORT.md and
    index.html to a new folder under ``results/``. Errors end in one line
    and an exit status, as they do for the ``knight`` command.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments, without the program name. None reads
        ``sys.argv[1:]``. ``main(["--help"])`` lists the options.

    Returns
    -------
    int
        The exit status: 0 when the sweep finished, 2 for a bad option and
        130 when it was interrupted. A resumable run says how to finish it.

    See Also
    --------
    bench.report : Redraw the figures and the report of a run folder.

    Examples
    --------
    Run a short sweep of one board and one method into a temporary folder.
    A bad option returns 2 after a one-line message on stderr.

    >>> import tempfile
    >>> from bench.__main__ import main
    >>> with tempfile.TemporaryDirectory() as out:
    ...     main(["--sizes", "5", "--methods", "greedy", "--starts", "corners",
    ...           "--repeats", "1", "--no-plots", "--out", out])  # doctest: +ELLIPSIS
    bench: 4 of 4 runs in .../runs.csv
    0
    >>> main(["--sizes", "1-x"])
    2
    """
    folder, args, heatmaps = prepare(argv)
    print(f"bench: writing {folder}", file=sys.stderr)
    try:
        done, planned = sweep_runner.execute(folder)
        _run_extras(folder)
        if not args.no_plots:
            tour_pictures.write_into(folder, tour_pictures.collect(folder))
            run_report.write(folder, heatmaps)
    except KeyboardInterrupt:
        print(
            f"bench: interrupted; the finished runs are kept in {folder}. "
            f"Finish with: python -m bench --resume {folder}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    print(
        f"bench: {done} of {planned} runs in {folder}/runs.csv"
        + ("" if args.no_plots else f"; read {folder}/REPORT.md")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
