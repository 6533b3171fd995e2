"""This package says what the frontier DP counts.

``states`` holds the states of a frontier and their successors.
``degree_relaxation`` finds the degree patterns that can still be completed.
``cell_order`` gives the order in which the squares are inserted."""
