"""The frozen references the speed guard times knight against: copies of
knight's kernels (reference_kernels) and of its frontier DP
(reference_frontier), never edited, each pinned by its SHA-256."""
