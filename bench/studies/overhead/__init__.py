"""Set-up against search through the public API (overhead_study)."""

from bench.studies.overhead.overhead_study import STUDY

__all__ = ["STUDY"]
