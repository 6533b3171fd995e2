"""This module says what a study is to the harness.

A study is one unit that measures into a JSON file of the run folder, draws
its figure from that file and writes its section of REPORT.md.

A preset sweep runs every study of ``bench.studies.registry.STUDIES`` after
its searches (``python -m bench`` offers ``--no-NAME`` for each); the
report walks the same list, in the same order, for the figures and
sections of whatever files a run folder holds. A study draws and writes
from its file alone, so ``make plots`` redraws it without measuring.

Adding a study: a folder of bench/studies/ whose ``__init__`` exports
``STUDY``, an instance of a subclass of ``Study``; the registry finds it
(bench/studies/__init__.py says how, step by step).
"""

import abc

from bench.run_folder import record


class Study(abc.ABC):
    """One study. Subclasses set the class attributes and implement
    ``setting``, ``measure``, ``figure`` and ``section``; ``run`` is the
    same for every study."""

    # the study's short name: --no-NAME skips it, the report keys it so
    name: str
    # its file in the run folder (the file name and format stay: a run
    # folder made before any change must still be readable)
    data_file: str
    # its figure's file in the run folder, or None for a study without one
    figure_file: str | None = None
    # its key in meta.json's "extras": the setting a preset sweep planned
    # for it, or None when it was skipped
    extra: str
    # the help of --no-NAME, and what is printed as it starts ({setting}: its setting)
    skip_help: str
    announcement: str

    @abc.abstractmethod
    def setting(self, quick):
        """What a preset sweep plans for the study (kept in meta.json, so a
        resumed run measures the same): the quick sweep's or the default's."""

    @abc.abstractmethod
    def measure(self, setting):
        """Measure; return what ``data_file`` holds (JSON-ready)."""

    @abc.abstractmethod
    def figure(self, measured, path):
        """Draw ``measured`` into the PNG ``path`` and return it, or return
        None when the study has no figure."""

    @abc.abstractmethod
    def section(self, measured, figure, studied):
        """REPORT.md's lines for the study. ``figure`` is the path the
        figure was drawn at (None without one); ``studied`` maps the name
        of each study the run holds to its measurements, for a section
        that quotes another's."""

    def run(self, folder, setting):
        """Measure and write ``data_file`` into ``folder``, unless it is
        there already (a resumed run keeps what it measured)."""
        path = folder / self.data_file
        if not path.exists():
            record.write_json(path, self.measure(setting))
        return path
