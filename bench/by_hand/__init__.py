"""This package holds measurements that are run by hand, outside every preset sweep and its report.

None of them is a study of the registry. Each is its own ``python -m``
command."""
