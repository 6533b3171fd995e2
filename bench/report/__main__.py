"""This module redraws the figures, REPORT.md and index.html of an existing run folder without searching.

Run it as ``python -m bench.report [FOLDER]`` (``make plots``). The folder
is results/latest by default."""

import sys

from bench import command, repo_paths
from bench.command import Parser, parse_boards
from bench.report import run_report
from bench.run_folder import folders


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(
        prog="python -m bench.report",
        description=(
            "Redraw the figures and REPORT.md of a benchmark run from its runs.csv and meta.json, without searching."
        ),
    )
    parser.add_argument(
        "folder", nargs="?", default=str(repo_paths.RESULTS / folders.LATEST), help="run folder; default results/latest"
    )
    parser.add_argument(
        "--heatmaps", help="boards for the heatmaps, like 6x6,8x8 (default: those, when every start was searched)"
    )
    args = parser.parse_args(argv)
    boards = parse_boards(args.heatmaps) if args.heatmaps else None
    path = run_report.write(args.folder, boards)
    print(f"wrote {path} and its figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
