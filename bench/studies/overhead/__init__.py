"""Set-up against search through the public API (overhead_study)."""
