"""Finding one tour: ``solver`` (the public ``solve`` and
``compile_kernels``: it validates and builds the arrays) and
``search_kernels`` (the compiled searches, which trust them)."""
