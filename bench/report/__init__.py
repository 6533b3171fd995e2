"""A run's figures, REPORT.md and index.html, from its files alone."""
