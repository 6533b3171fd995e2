"""Every compiled function in knight/ goes through the one policy of
knight/runtime/_jit.py (as stumpy checks its fastmath flags): no module calls
Numba's decorators itself, and every dispatcher carries the policy's options."""

import ast
import importlib
import pkgutil
from pathlib import Path

import numba
import pytest

import knight
from knight.runtime import _jit
from tests import python_source

PACKAGE = Path(knight.__file__).parent
# Numba's ways to compile a function; only knight/runtime/_jit.py may use them
COMPILERS = {"jit", "njit", "generated_jit", "vectorize", "guvectorize", "cfunc", "stencil", "jit_module"}
# every module, subpackages' included (iter_modules would stop at the top
# level and silently skip the engines' kernels), but __main__, which runs
# the command line when imported
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="knight.")
    if info.name.rsplit(".", 1)[-1] != "__main__"
)
SOURCES = sorted(PACKAGE.rglob("*.py"))


def _numba_compilers_used(tree):
    """``(line, name)`` of each Numba compiler a module imports or reaches as
    ``numba.<name>`` (``numba.core.decorators.njit`` included)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            found += [(node.lineno, alias.name) for alias in node.names if alias.name in COMPILERS]
        if isinstance(node, ast.Attribute) and node.attr in COMPILERS:
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id == "numba":
                found.append((node.lineno, node.attr))
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_only_the_policy_module_calls_numba_compilers(path):
    used = _numba_compilers_used(python_source.parse_file(path))
    if path == PACKAGE / "runtime" / "_jit.py":
        assert used, "knight/runtime/_jit.py no longer compiles anything: update this test"
    else:
        assert used == [], f"{path.relative_to(PACKAGE)} compiles without knight.runtime._jit.jit: {used}"


def test_the_walk_reaches_every_module_of_every_subpackage():
    # a module the walk missed would go unchecked: each source file is one
    walked = {name.removeprefix("knight.").replace(".", "/") for name in MODULES}
    files = {str(path.relative_to(PACKAGE).with_suffix("")).removesuffix("/__init__") for path in SOURCES}
    assert walked == files - {"__main__", "__init__"}
    assert any("." in name.removeprefix("knight.") for name in MODULES)


def test_the_scan_sees_each_way_of_writing_it():
    source = "import numba\nfrom numba import njit\n@numba.njit\ndef f(): pass\ng = numba.core.decorators.jit(f)\n"
    assert [name for _, name in _numba_compilers_used(python_source.parse(source))] == ["njit", "njit", "jit"]


def _dispatchers():
    for name in MODULES:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, numba.core.dispatcher.Dispatcher) and value.py_func.__module__ == name:
                yield f"{name}.{attribute}", value


def test_every_dispatcher_has_the_policy_options():
    policy = dict(_jit.POLICY)
    cache = policy.pop("cache")
    dispatchers = dict(_dispatchers())
    # the kernels the searches and counts run are among those checked
    # (knight.runtime._bits.popcount is an intrinsic: inlined into its callers)
    counters = {f"knight.counting.dfs.dfs_kernels.count_subtree_{kind}" for kind in ("plain", "pruned")}
    steps = {
        "knight.counting.dp.steps.hash_kernels.frontier_step",
        "knight.counting.dp.model.degree_relaxation.pattern_step",
    }
    searches = {"knight.search.search_kernels.backtrack", "knight.geometry.neighbours.fill_neighbour_table"}
    assert {*searches, *counters, *steps} <= set(dispatchers)
    for name, dispatcher in dispatchers.items():
        options = {key: dispatcher.targetoptions.get(key) for key in policy}
        assert options == policy, name
        assert (type(dispatcher._cache).__name__ != "NullCache") == cache, name


# a process in which Numba finds no folder to cache in (as a read-only
# install run by a user whose home is not writable): its locators all decline
_NO_CACHE_FOLDER = """
import sys
import numba.core.caching as caching
caching.CacheImpl._locator_classes = []
from knight import cli
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("argv", "answer"),
    [
        # the greedy walk compiles the fewest kernels: the policy is the same for all
        (["solve", "5", "5", "--method", "greedy"], "status   found"),
        # every DP kernel compiled uncached takes most of a minute: make test-all runs it
        pytest.param(["count", "3", "4", "--method", "dp"], "16 directed open tours", marks=pytest.mark.slow),
    ],
)
def test_a_process_that_cannot_cache_says_so_once_and_runs_uncached(argv, answer):
    """Issue 57: a read-only install with no writable NUMBA_CACHE_DIR or
    home ended in 37 lines and ``RuntimeError: cannot cache function
    'fill_neighbour_table': no locator available``."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _NO_CACHE_FOLDER, *argv], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and answer in done.stdout, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("knight: no writable cache folder")
