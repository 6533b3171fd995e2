"""bench/ uses knight as a user does: through ``knight``'s public API, or
through knight/harness_api.py, the one documented internal surface. Every
import in bench/, function-level ones too, is read with ``ast``."""

import ast

import pytest

import knight
from bench import repo_paths
from knight import harness_api
from tests import python_source

BENCH = repo_paths.ROOT / "bench"
# run beside any revision of knight (bench/timing/ab_worker.py), old ones
# without harness_api included: knight's public API alone
WORKER_FILES = ("timing/ab_worker.py", "timing/instruction_worker.py", "timing/named_search.py")


def _knight_imports(path):
    """``(line, what)`` for every import of knight or of a part of it in ``path``."""
    found = []
    for node in ast.walk(python_source.parse_file(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names if alias.name.split(".")[0] == "knight"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module.split(".")[0] == "knight":
            found += [(node.lineno, node.module, alias.name) for alias in node.names]
    return found


def _allowed(module, name, internal=True):
    if name is None:  # import knight[.x]
        return module == "knight" or (internal and module == "knight.harness_api")
    if module == "knight":
        return name in knight.__all__ or (internal and name == "harness_api")
    if module == "knight.harness_api":
        return internal and (name in harness_api.__all__ or name in harness_api._LAZY)
    return False


def test_bench_imports_nothing_of_knight_but_its_api_and_the_harness_api():
    assert all((BENCH / name).is_file() for name in WORKER_FILES), "a worker file moved: name it here"
    offenders = []
    for path in sorted(BENCH.rglob("*.py")):
        internal = path.relative_to(BENCH).as_posix() not in WORKER_FILES
        for line, module, name in _knight_imports(path):
            if not _allowed(module, name, internal):
                shown = module if name is None else f"{module}.{name}"
                offenders.append(f"{path.relative_to(repo_paths.ROOT)}:{line} imports {shown}")
    assert offenders == []


def test_the_check_sees_function_level_imports(tmp_path):
    """The check can fail: a submodule imported inside a function is caught."""
    planted = tmp_path / "planted.py"
    planted.write_text("def f():\n    from knight import frontier\n    import knight.search\n")
    found = [(module, name) for _, module, name in _knight_imports(planted)]
    assert found == [("knight", "frontier"), ("knight.search", None)]
    assert not any(_allowed(module, name) for module, name in found)


@pytest.mark.parametrize("name", [*harness_api.__all__, *harness_api._LAZY])
def test_every_name_of_the_harness_api_resolves(name):
    assert getattr(harness_api, name) is not None


def test_the_harness_api_says_why_for_every_name():
    for name in [*harness_api.__all__, *harness_api._LAZY]:
        assert f"``{name}``" in harness_api.__doc__, f"harness_api's docstring does not say why {name}"
