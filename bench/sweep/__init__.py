"""The sweep: what a benchmark run searches, in which order, and how long it takes."""
