"""The speed guard: knight timed against frozen references and the C baselines, interleaved."""
