"""This package counts every knight's tour of a board.

``driver`` holds ``count_tours``, ``prepare`` and the ``auto`` choice of
engine. ``jobs`` holds the ``Job`` that an engine is handed and the
``Tally`` that it returns. The two engines are ``dfs``, an exhaustive search
split into work units, and ``dp``, a frontier dynamic program."""
