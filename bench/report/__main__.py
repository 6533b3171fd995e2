"""``python -m bench.report [FOLDER]`` (``make plots``): redraw the figures,
REPORT.md and index.html of a run folder from its files, without searching."""

import sys

from bench.report.run_report import main

if __name__ == "__main__":
    sys.exit(main())
