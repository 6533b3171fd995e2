"""This package runs the speed guard's workloads over other revisions of knight.

It holds the A/B comparison, the history and the bisection. The worktrees
and workers they use are in bench/timing/revisions.py."""
