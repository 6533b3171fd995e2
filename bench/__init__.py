"""This package is the benchmark harness, which measures knight and is never imported by it.

The harness reaches knight as a user does, through knight's public API and
through the one documented internal surface, knight/harness_api.py.

The harness reaches knight as a user does, through knight's public API and
through the one documented internal surface, knight/harness_api.py.

A folder per job: sweep/ (what is searched), run_folder/ (the files of a
run), studies/ (each study one folder, found by studies/registry.py),
by_hand/ (measurements run by hand, outside the sweep), guard/ (the speed
guard), commits/ (the guard's workloads over other revisions: A/B,
history, bisection), report/ (figures, REPORT.md, index.html), references/
(the frozen references), baselines/ (the same searches outside Numba) and
timing/ (the clocks, the search and outcome types, paired sides, other
revisions and their workers). The root holds only what several folders
share, so that no folder owns it and the folders import one way only:
command.py, repo_paths.py, figure_style.py and text_cells.py.
"""

import sys

# every entry point of the harness imports this package first, and its
# modules import Numba at import: a setting Numba fails on is one line here.
# Not under PyPy: the toolchain comparison's PyPy worker (bench/baselines/
# pypy_worker.py, Debian's pypy3 is Python 3.9) imports no Numba, and
# knight's modules are Python 3.10 code
if sys.implementation.name != "pypy":
    from knight.harness_api import exit_status

    exit_status.check_environment("bench")
