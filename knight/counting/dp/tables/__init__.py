"""This package holds the frontier DP's tables in memory and on disk.

``table_kernels`` holds the open-addressing table and the carry-checked
counts that every step shares. ``table_format`` writes a table to disk and
maps it back. ``packed_table`` and ``packed_kernels`` store a table packed,
with keys as gaps and counts in the bytes they need. ``table_merge`` splits
and merges tables for the cluster's exchange.
"""
