"""Other revisions of knight, each in a process of its own: A/B, history, bisection."""
