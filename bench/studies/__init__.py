"""The studies a preset sweep runs besides its searches, each one unit
(bench/studies/study.py), listed once in bench/studies/registry.py."""
