"""The frontier DP's step engines. Each takes a table (``keys``, one state
a row, and ``counts``, their multi-limb counts) with the step's arguments
and returns ``(keys, counts, found, emitted, dead, overflow)``: the next
table, the tours completed, the successors made, the options dropped, and
1 if a count carried out of the top limb (the run widens the limbs and
steps again). ``hash_step`` merges successors in hash tables (threads by
pattern, shards to disk past memory); ``partitioned_step`` in cache-sized
partition tables; ``out_of_core_step`` the partitioned step a chunk at a
time through run files on disk."""
