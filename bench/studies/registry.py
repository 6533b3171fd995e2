"""This module finds every study of a preset sweep in bench/studies/.

Each folder of it that is a package is a study, and its ``__init__`` exports
``STUDY``. bench/studies/study.py says what a study provides. No list names
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


def studies(names):
    """The ``STUDY`` of each package of ``names``; a package without one is
    no study, and that is said in one line naming it."""
    found = []
    for name in names:
        study = getattr(importlib.import_module(name), "STUDY", None)
        if study is None:
            raise ImportError(f"{name}: a folder of bench/studies/ is a study, and its __init__ exports no STUDY")
        found.append(study)
    return tuple(found)


PACKAGES = packages()
STUDIES = studies(PACKAGES)
