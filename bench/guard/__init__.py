"""This package is the speed guard, which times knight against frozen references and the C baselines, interleaved."""
