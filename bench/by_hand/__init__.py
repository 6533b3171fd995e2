"""Measurements run by hand, outside every preset sweep and its report:
no study of the registry, each its own ``python -m`` command."""
