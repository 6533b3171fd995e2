"""This package holds what both counting engines share on a Dask cluster.

That is the connection and the one reading of the cluster's failures."""
