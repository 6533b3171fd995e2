"""This module defines the integer status codes that kernels return, and their words.

The only place either is defined: kernels import the codes, and every
reader of a status (``Result.status``, the harness's records and
references) takes its word from ``WORDS``. Pure Python: cheap to import.
"""

FOUND = 0
NONE = 1
BUDGET = 2
DEAD_END = 3
# a count's search gave up because its stop signal was raised
STOPPED = 4

# what a finished search of ``knight.solve`` reports, in code order
WORDS = {FOUND: "found", NONE: "none", BUDGET: "budget", DEAD_END: "dead-end"}
