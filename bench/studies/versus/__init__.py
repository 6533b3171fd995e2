"""This package is the toolchain comparison, with its searches, its figure and its section.

versus_study runs the study, versus_workloads lists its searches, and
versus_report draws the figure and writes the section."""
