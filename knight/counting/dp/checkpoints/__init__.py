"""The DP's ``--resume`` checkpoints: one shared header (``checkpoint_header``)
for a count in one process (``process_checkpoint``, with ``linked_table``
for a table already on disk) and for a count on a cluster
(``cluster_checkpoint``)."""
