"""The guard's workloads over other revisions of knight (the worktrees and workers
of bench/timing/revisions.py): A/B, history, bisection."""
