"""This package plans what a benchmark run searches, in which order, and how long it takes."""
