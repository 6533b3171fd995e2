"""This package holds a run folder and its files, runs.csv and meta.json, and the results/latest pointer."""
