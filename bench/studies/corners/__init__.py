"""The corner study: greedy and Warnsdorff from 1,1 of every n x n (corners_study)."""
