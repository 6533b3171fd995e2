"""The toolchain comparison: the study (versus_study), its searches
(versus_workloads) and its figure and section (versus_report)."""
