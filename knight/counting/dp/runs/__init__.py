"""This package holds the frontier DP's run loop and its executors.

``run_loop`` holds the loop (``run_steps``) and the executor of one
process (``ProcessSteps``). ``cluster_run`` holds the executor of a Dask
cluster. ``width_sweep`` counts every width of a board in one run.
``worker_threads`` keeps the thread pool that every step runs on.
"""
