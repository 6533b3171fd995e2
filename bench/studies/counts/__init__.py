"""This package is the counting study, with its worker process, its figure and its section.

count_study runs the study, count_worker is the process each count runs in,
and count_report draws the figure and writes the section."""
