"""This package holds the DP's ``--resume`` checkpoints.

``checkpoint_header`` is the header that all of them share.
``process_checkpoint`` saves a count in one process, with ``linked_table``
for a table already on disk, and ``cluster_checkpoint`` saves a count on a
cluster."""
