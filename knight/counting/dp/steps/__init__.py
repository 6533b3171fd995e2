"""This package holds the frontier DP's step engines.

Each engine takes a table (``keys``, one state a row, and ``counts``, their
multi-limb counts) with the step's arguments. It returns ``(keys, counts,
found, emitted, dead, overflow)``: the next table, the tours completed, the
successors made, the options dropped, and 1 if a count carried out of the
top limb. On an overflow the run widens the limbs and takes the step again.
``hash_step`` merges successors in hash tables, with threads by pattern and
shards on disk past memory. ``partitioned_step`` merges them in cache-sized
partition tables. ``out_of_core_step`` takes the partitioned step a chunk at
a time through run files on disk."""
