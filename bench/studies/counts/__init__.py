"""The counting study: the study (count_study), the worker process each
count runs in (count_worker), and its figure and section (count_report)."""
