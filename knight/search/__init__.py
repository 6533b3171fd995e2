"""This package finds one tour.

``solver`` holds the public ``solve`` and ``compile_kernels``, which
validate the arguments and build the arrays. ``search_kernels`` holds the
compiled searches, which trust those arrays."""
