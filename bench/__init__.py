"""This package is the benchmark harness, which measures knight and is never imported by it.

The harness reaches knight as a user does, through knight's public API and
through the one documented internal surface, knight/harness_api.py.

The harness reaches knight as a user does, through knight's public API and
through the one documented internal surface, knight/harness_api.py.

A folder per job: sweep/ (what is searched), run_folder/ (the files of a
run), guard/ (the speed guard), commits/ (the guard's workloads over other
revisions: A/B, history, bisection), studies/ (each study one folder, found
by studies/registry.py), experiments/ (measurements run by hand, outside
the sweep), report/ (figures, REPORT.md, index.html), baselines/ (the same
searches outside Numba). The flat core holds what several folders share,
so that no folder owns it and the folders import one way only:
named_search.py (the search and outcome types), revisions.py with its
workers ab_worker.py and instruction_worker.py, paired.py, timing.py,
figure_style.py, text_cells.py, command.py, repo_paths.py and the frozen
references.
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
