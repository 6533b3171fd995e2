"""knight's and bench's import graphs, read from the source with ``ast``:
no cycles (function-level imports included, so that none hides one), none
between bench/'s folders either, no arrow from knight/ into
bench/, and no two modules of one name across knight/ and bench/ (a name
says which is which)."""

import ast
import re
from pathlib import Path

import knight
from tests import python_source

PACKAGE = Path(knight.__file__).parent
ROOT = PACKAGE.parent
BENCH = ROOT / "bench"


def _module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(folder):
    return {_module_name(path): path for path in sorted(folder.rglob("*.py"))}


MODULES = _modules(PACKAGE)
BENCH_MODULES = _modules(BENCH)


def _target(name, modules):
    """The module of ours that importing ``name`` runs, or None."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


_DOTTED = re.compile(r"(knight|bench)(\.\w+)+")


def imported_names(tree):
    """Every name a module's code imports, anywhere in it (in a function
    too): ``import a.b`` gives ``a.b``; ``from a import b`` gives ``a.b``,
    a submodule or a name defined in ``a`` (``import_graph`` tells which);
    a string that is a dotted knight name (knight/__init__.py's lazy
    attributes, imported by ``importlib``) too."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _DOTTED.fullmatch(node.value):
            names.append(node.value)
    return names


def import_graph(modules):
    """``{module: set of the modules of ``modules`` it imports}``."""
    ours = {name.split(".")[0] for name in modules}
    graph = {}
    for name, path in modules.items():
        tree = python_source.parse_file(path)
        targets = set()
        for imported in imported_names(tree):
            if imported.split(".")[0] not in ours:
                continue
            # ``from knight.x import y``: y a submodule, or a name in x
            found = imported if imported in modules else _target(imported.rpartition(".")[0], modules)
            if found is not None and found != name:
                targets.add(found)
        graph[name] = targets
    return graph


def find_cycle(graph):
    """One cycle of ``graph`` as a list of nodes (first repeated last), or None."""
    state = dict.fromkeys(graph, 0)  # 0 unseen, 1 on the stack, 2 done
    stack = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for following in sorted(graph[node]):
            if state[following] == 1:
                return [*stack[stack.index(following) :], following]
            if state[following] == 0 and (cycle := visit(following)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if state[node] == 0 and (cycle := visit(node)):
            return cycle
    return None


def test_knight_has_no_import_cycle():
    graph = import_graph(MODULES)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_bench_has_no_import_cycle():
    graph = import_graph(BENCH_MODULES)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def folder_graph(graph, root=BENCH):
    """The import graph between the folders of ``root`` (bench/ or knight/):
    a module of a subpackage stands for its folder (``bench.guard.workloads``
    for ``bench.guard``), one of the flat core for itself."""

    def folder(name):
        parts = name.split(".")
        return ".".join(parts[:2]) if len(parts) > 1 and (root / parts[1]).is_dir() else name

    folders = {}
    for name, targets in graph.items():
        folders.setdefault(folder(name), set()).update(folder(t) for t in targets)
    return {name: targets - {name} for name, targets in folders.items()}


def test_bench_folders_import_one_way():
    """bench/'s folders (and its root's modules) form no cycle: what two
    folders share lives in the root (the figure and text helpers) or in a
    folder below both (bench/timing/'s search types, paired sides and
    workers), never in one of them."""
    graph = folder_graph(import_graph(BENCH_MODULES))
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_knight_folders_import_one_way():
    """knight/'s packages (geometry/, runtime/, files/, search/, counting/,
    cli/) and its flat core's modules form no cycle: ``ls knight`` reads as
    layers, the board model and the runtime below, the command line on top."""
    graph = folder_graph(import_graph(MODULES), root=PACKAGE)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))
    assert "knight.cli" not in set().union(*(graph[name] for name in graph if name != "knight.__main__"))


def test_a_folder_cycle_is_found():
    """The folder graph is read as drawn: two folders importing each other
    through modules that form no module cycle are a cycle of folders."""
    graph = {
        "bench.guard.a": {"bench.commits.b"},
        "bench.commits.b": set(),
        "bench.commits.c": {"bench.guard.d"},
        "bench.guard.d": set(),
    }
    assert find_cycle(graph) is None
    assert find_cycle(folder_graph(graph)) in (
        ["bench.commits", "bench.guard", "bench.commits"],
        ["bench.guard", "bench.commits", "bench.guard"],
    )


def test_the_engines_and_the_search_are_read_as_packages():
    graph = import_graph(MODULES)
    assert "knight.counting.dp.engine" in graph["knight.counting.driver"]
    assert "knight.counting.jobs" in graph["knight.counting.dp.engine"]
    assert "knight.counting.jobs" in graph["knight.counting.dfs.dfs_engine"]
    # knight/__init__.py's lazy attributes are arrows too
    assert "knight.search.solver" in graph["knight"]


def test_the_scan_sees_every_way_of_importing():
    source = (
        "import knight.geometry.board\n"
        "def f():\n    from knight.counting.dp.runs import run_loop\n"
        "    from knight.geometry.neighbours import neighbour_table\n"
        "LAZY = {'solve': 'knight.search.solver'}\n"
    )
    modules = dict.fromkeys(
        [
            "knight",
            "knight.geometry.board",
            "knight.counting",
            "knight.counting.dp.runs",
            "knight.counting.dp.runs.run_loop",
            "knight.geometry.neighbours",
            "knight.search",
            "knight.search.solver",
            "knight.scanned",
        ]
    )
    names = imported_names(python_source.parse(source))
    found = {name if name in modules else _target(name.rpartition(".")[0], modules) for name in names}
    assert {
        "knight.geometry.board",
        "knight.counting.dp.runs.run_loop",
        "knight.geometry.neighbours",
        "knight.search.solver",
    } <= found


def test_a_cycle_is_found():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_nothing_in_knight_imports_bench():
    for name, path in MODULES.items():
        tree = python_source.parse_file(path)
        assert not [i for i in imported_names(tree) if i.split(".")[0] == "bench"], name


def test_no_two_modules_share_a_name_across_knight_and_bench():
    seen = {}
    for folder in ("knight", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.stem not in ("__init__", "__main__"):
                seen.setdefault(path.stem, []).append(path.relative_to(ROOT).as_posix())
    assert {stem: paths for stem, paths in seen.items() if len(paths) > 1} == {}
