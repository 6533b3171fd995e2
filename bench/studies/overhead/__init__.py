"""This package is the overhead study, which weighs set-up against search through the public API."""

from bench.studies.overhead.overhead_study import STUDY

__all__ = ["STUDY"]
