"""This package holds the frozen references that the speed guard times knight against.

They are copies of knight's kernels (reference_kernels) and of its frontier
DP (reference_frontier). They are never edited, and a test pins each one by
its SHA-256."""
