"""What every kernel runs on: the one Numba policy (``_jit``), the
popcount intrinsic (``_bits``), names imported on first use (``_lazy``),
the machine's cores and memory limits (``machine``) and the status codes
kernels return (``status``)."""
