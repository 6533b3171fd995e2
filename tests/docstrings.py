"""Check the public API's docstrings with numpydoc's validator, as ``make lint`` does.

The names checked are read from ``knight.__all__`` and the harness API at each
run, so that a new export is checked without an edit here. A class brings its
public methods and properties along. The checks to run are read from
``[tool.numpydoc_validation]`` in pyproject.toml. Run it as
``python -m tests.docstrings``. It prints one line for each problem and exits
with status 1 when there is any.
"""

import importlib
import inspect
import os
import sys
from pathlib import Path

from numpydoc import validate
from numpydoc.hooks.validate_docstrings import parse_config

import knight
from knight import harness_api

ROOT = Path(__file__).resolve().parents[1]
# the functions of bench/ that a user calls: the entry point of ``python -m bench``
BENCH_ENTRY_POINTS = ("bench.__main__.main",)


def resolve(name):
    """Return the object that a dotted import path names.

    Parameters
    ----------
    name : str
        A dotted path such as ``"knight.solve"`` or ``"knight.Result.found"``.

    Returns
    -------
    object
        The module, class, function or attribute at the end of the path.
    """
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for part in parts[split:]:
            found = getattr(found, part)
        return found
    raise ModuleNotFoundError(name)


def _has_docstring_to_check(obj):
    """Whether ``obj`` is a function or a class (modules and constants are not checked)."""
    return inspect.isfunction(obj) or inspect.isclass(obj)


def _members(name, cls):
    """Return the paths of the public methods and properties a class defines itself."""
    return [
        f"{name}.{member}"
        for member, value in vars(cls).items()
        if not member.startswith("_") and (inspect.isfunction(value) or isinstance(value, property))
    ]


def public_names():
    """Return the import path of every public object whose docstring is checked.

    Returns
    -------
    list of str
        ``knight.__all__``, the functions and classes of the harness API and
        the bench's entry points, each class followed by its public members.
    """
    names = [f"knight.{name}" for name in knight.__all__]
    harness = sorted({*harness_api.__all__, *harness_api._LAZY})
    names += [f"knight.harness_api.{name}" for name in harness]
    names += BENCH_ENTRY_POINTS
    checked = []
    for name in names:
        obj = resolve(name)
        if _has_docstring_to_check(obj):
            checked.append(name)
            if inspect.isclass(obj):
                checked += _members(name, obj)
    return checked


def problems(name, checks):
    """Return numpydoc's findings on one docstring, kept to the configured checks.

    Parameters
    ----------
    name : str
        The dotted import path of the object.
    checks : set of str
        The numpydoc error codes to report, such as ``"PR01"``.

    Returns
    -------
    list of str
        One line for each finding: the file and line, the name, the code and the message.
    """
    report = validate.validate(name)
    where = f"{os.path.relpath(report['file'], ROOT)}:{report['file_line']}" if report["file"] else name
    return [f"{where}: {name}: {code} {message}" for code, message in report["errors"] if code in checks]


def main():
    """Check every public docstring and print each problem.

    Returns
    -------
    int
        0 when every docstring passes, 1 otherwise.
    """
    checks = validate.get_validation_checks(parse_config(ROOT)["checks"])
    found = [line for name in public_names() for line in problems(name, checks)]
    for line in found:
        print(line)
    print(f"numpydoc: {len(found)} problems in {len(public_names())} public docstrings", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
