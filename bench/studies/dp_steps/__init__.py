"""The DP's step engines against each other: the study (dp_step_study),
the worker process it runs them in (dp_step_worker), and its figure and
section (dp_step_report)."""
