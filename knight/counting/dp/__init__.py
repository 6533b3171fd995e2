"""The frontier dynamic program, which counts tours without enumerating them.

The program inserts the board's squares one at a time and keeps only the
states of the frontier (``docs/counting-dp.md`` explains it). The package
is grouped by concept:

* ``engine`` turns a ``Job`` into runs and their answers: the total over
  every start, or the tours from each start;
* ``model/`` says what is counted: the state encoding, the degree
  relaxation and the order of the squares;
* ``steps/`` holds the step engines (hash, partitioned, out of core), which
  each take a table and return the next;
* ``tables/`` holds the table in memory and on disk, packed and merged;
* ``planning/`` turns budgets into room, projects a run's peak, and holds
  the ``StepPolicy``;
* ``runs/`` holds the run loop and its executors (one process, a Dask
  cluster), the every-width sweep and the worker threads;
* ``checkpoints/`` holds the ``--resume`` files of a process and a cluster.
"""
