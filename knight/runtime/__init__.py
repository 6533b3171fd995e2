"""This package holds what every kernel runs on.

``_jit`` is the one Numba policy and ``_bits`` the popcount intrinsic.
``_lazy`` imports names on first use. ``machine`` reads the machine's cores
and memory limits, and ``status`` holds the status codes that kernels
return."""
