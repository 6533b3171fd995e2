"""Every study of a preset sweep, in the order ``python -m bench`` runs them
and REPORT.md shows them: the one list of studies (bench/studies/study.py
says what a study provides). Adding a study is one line here."""

from bench.studies import corners, count_study, dp_step_study, overhead, versus

STUDIES = (
    versus.STUDY,
    corners.STUDY,
    overhead.STUDY,
    count_study.STUDY,
    dp_step_study.STUDY,
)
