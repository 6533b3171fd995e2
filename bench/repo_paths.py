"""Where the harness's files live, each spelled once and always from the
repository root (this file's folder's parent), never from the working
directory: ``python -m bench`` run from anywhere writes to the same place."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# run folders, results/latest and the history CSV
RESULTS = ROOT / "results"
# the committed references the speed guard holds knight to
BASELINE = RESULTS / "baseline"
