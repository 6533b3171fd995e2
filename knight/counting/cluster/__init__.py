"""What both engines share on a Dask cluster: the connection and the one
reading of its failures."""
