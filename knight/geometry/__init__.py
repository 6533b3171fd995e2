"""The board model: squares and moves (``board``), the neighbour table
every kernel reads (``neighbours``), dihedral symmetry classes of starts,
the theorems that rule tours out (``theory``) and the independent tour
checker (``tour_check``). Nothing here imports a kernel or a count."""
