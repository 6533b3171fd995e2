"""This package is the overhead study, which weighs set-up against search through the public API."""
