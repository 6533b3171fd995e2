"""This package models the board.

``board`` holds squares and moves, and ``neighbours`` the neighbour table
that every kernel reads. ``symmetry`` groups start squares into dihedral
symmetry classes. ``theory`` holds the theorems that rule tours out, and
``tour_check`` the independent tour checker. Nothing here imports a kernel
or a count."""
