"""A run folder and the files in it: runs.csv, meta.json, results/latest."""
