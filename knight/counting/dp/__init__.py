"""The frontier dynamic program: counts tours without enumerating them,
inserting the board's squares one at a time and keeping only the states of
the frontier (``docs/counting-dp.md``).

The package by concept:

* ``engine``: the DP as a counting engine (the runs a ``Job`` needs, their
  checkpoints, the answer per start; ``total_tours``);
* ``run_loop``: one run over a schedule by one loop (``run_steps``): the
  ratio that sizes each step, the ``Work``, limbs widened on overflow,
  resume, the hooks after each step; its steps a ``StepExecutor``'s, here
  the one process's (``ProcessSteps``, ``count_hamiltonian``);
* ``cluster_run``: the executor of a Dask cluster (``ClusterSteps``, run
  by ``ClusterRun``) and the workers' memory checked first; ``table_merge``,
  the kernels of its table exchange;
* ``memory_model``: every share of memory and bytes-a-state figure, the
  projection of a run, the refusal of a board that cannot fit;
* ``table_format``: the table on disk; ``packed_table`` and
  ``packed_kernels``, its packed form (keys as gaps, counts in the bytes
  they need), read a chunk at a time;
* ``table_kernels``: the open-addressing table and the carry-checked counts
  every step shares;
* ``worker_threads``: the threads every pass and step runs on, one pool a
  process, kept;
* ``model/``: what is counted: the state encoding (``states``), the degree
  relaxation (``degree_relaxation``), the square order (``cell_order``);
* ``steps/``: the step engines: hash (``hash_step``, ``hash_kernels``),
  partitioned (``partitioned_step``, ``partition_kernels``) and out of core
  (``out_of_core_step``); each takes a table and returns the next;
* ``checkpoints/``: ``--resume`` files on one shared header
  (``checkpoint_header``: identity, checksum, field checks) for one
  process (``process_checkpoint``, its tables linked by ``linked_table``)
  and for a cluster (``cluster_checkpoint``).
"""
