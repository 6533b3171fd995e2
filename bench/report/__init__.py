"""This package draws a run's figures and writes its REPORT.md and index.html from the run's files alone."""
