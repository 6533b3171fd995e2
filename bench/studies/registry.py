"""Every study of a preset sweep, in the order ``python -m bench`` runs them
and REPORT.md shows them: the one list of studies (bench/studies/study.py
says what a study provides). Each study is a package of bench/studies/
that exports its ``STUDY``; adding one is its folder and its line here."""

import importlib

PACKAGES = (
    "bench.studies.versus",
    "bench.studies.corners",
    "bench.studies.overhead",
    "bench.studies.counts",
    "bench.studies.dp_steps",
)

STUDIES = tuple(importlib.import_module(package).STUDY for package in PACKAGES)
