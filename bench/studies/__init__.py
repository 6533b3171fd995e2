"""The studies a preset sweep runs besides its searches, each one unit
(bench/studies/study.py) in a package of its own (the study, its worker,
its report), listed once in bench/studies/registry.py."""
