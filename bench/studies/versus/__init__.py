"""The toolchain comparison: the study (versus_study), its searches
(versus_workloads) and its figure and section (versus_report)."""

from bench.studies.versus.versus_study import STUDY

__all__ = ["STUDY"]
