"""Counting every tour: ``driver`` (``count_tours``, ``prepare`` and the
``auto`` choice of engine), ``jobs`` (the ``Job`` an engine is handed and
the ``Tally`` it returns) and the two engines, ``dfs`` (an exhaustive
search split into work units) and ``dp`` (a frontier dynamic program)."""
