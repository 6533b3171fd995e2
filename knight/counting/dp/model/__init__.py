"""What the frontier DP counts: the states of a frontier and their
successors (``states``), the degree patterns that can still be completed
(``degree_relaxation``), and the order the squares are inserted in
(``cell_order``)."""
