"""This module says where the harness's files live, each path spelled once from the repository root.

The root is this file's folder's parent, never the working directory, so
that ``python -m bench`` run from anywhere writes to the same place."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# run folders, results/latest and the history CSV
RESULTS = ROOT / "results"
# the committed references the speed guard holds knight to
BASELINE = RESULTS / "baseline"
