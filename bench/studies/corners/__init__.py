"""This package is the corner study, which runs greedy and Warnsdorff from the corner of every n x n board."""
