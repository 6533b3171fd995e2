"""The DFS counting engine: a pruned exhaustive search, each start's tree
cut into work units that run on local threads or a Dask cluster, finished
units kept in a resume file."""
