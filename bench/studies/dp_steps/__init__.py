"""This package is the study that compares the DP's step engines with each other.

dp_step_study runs the study, dp_step_worker is the process it runs the
engines in, and dp_step_report draws the figure and writes the section."""
