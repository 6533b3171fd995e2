"""This module finds every study of a preset sweep in bench/studies/.

Each folder of it that is a package is a study, and its one ``*_study``
module exports ``STUDY``. bench/studies/study.py says what a study provides. No list names
the studies, so a new folder is found as it is. ``python -m bench`` runs the
studies, and REPORT.md shows them, in ``ORDER`` first and then by folder
name."""

import importlib
import pkgutil
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
# the order of the run and of REPORT.md: a study's place, not whether it
# runs (a folder not named here runs after these, by name)
ORDER = ("versus", "corners", "overhead", "counts", "dp_steps")


def packages(folder=FOLDER, package=__package__):
    """The dotted names of the study packages in ``folder`` (the package
    ``package``): those ``ORDER`` names in its order, then the others by name."""
    found = sorted(module.name for module in pkgutil.iter_modules([str(folder)]) if module.ispkg)
    ordered = [name for name in ORDER if name in found] + [name for name in found if name not in ORDER]
    return tuple(f"{package}.{name}" for name in ordered)


def study_module(package):
    """The one ``*_study`` module of the package ``package``, imported.

    The package's ``__init__`` imports nothing: ``python -m`` starts a
    study's worker through its package, and runpy warns when the package
    has already imported the module it is about to run.

    Parameters
    ----------
    package : str
        The dotted name of a study's package.

    Returns
    -------
    module or None
        Its module named ``*_study``; None when it has none or several.

    Examples
    --------
    >>> study_module("bench.studies.counts").__name__
    'bench.studies.counts.count_study'
    """
    folder = importlib.import_module(package).__path__
    names = [module.name for module in pkgutil.iter_modules(folder) if module.name.endswith("_study")]
    return importlib.import_module(f"{package}.{names[0]}") if len(names) == 1 else None


def studies(names):
    """The ``STUDY`` of each package of ``names``; a package without one is
    no study, and that is said in one line naming it."""
    found = []
    for name in names:
        study = getattr(study_module(name), "STUDY", None)
        if study is None:
            raise ImportError(f"{name}: a folder of bench/studies/ is a study, and its *_study module exports no STUDY")
        found.append(study)
    return tuple(found)


PACKAGES = packages()
STUDIES = studies(PACKAGES)
