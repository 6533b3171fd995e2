"""The counting study: the study (count_study) and the worker process
each count runs in (count_worker)."""

from bench.studies.counts.count_study import STUDY

__all__ = ["STUDY"]
