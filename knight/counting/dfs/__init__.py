"""This package is the DFS counting engine, a pruned exhaustive search.

Each start's tree is cut into work units that run on local threads or on a
Dask cluster, and finished units are kept in a resume file."""
