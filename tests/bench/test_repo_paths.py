"""Where results live is spelled once (bench/repo_paths.py), from the
repository root: a harness started from any working directory reads and
writes the same folders."""

import ast
import subprocess
import sys

from bench import repo_paths
from tests import python_source


def test_the_paths_are_the_repository_roots_not_the_working_directorys():
    assert (repo_paths.ROOT / "pyproject.toml").is_file() and (repo_paths.ROOT / "bench").is_dir()
    assert repo_paths.RESULTS == repo_paths.ROOT / "results" and repo_paths.RESULTS.is_absolute()
    assert (repo_paths.BASELINE / "nodes.json").is_file() and (repo_paths.BASELINE / "ratios.json").is_file()


def test_no_other_bench_module_spells_where_results_live():
    spelled = []
    for path in sorted((repo_paths.ROOT / "bench").rglob("*.py")):
        if path.name == "repo_paths.py":
            continue
        for node in ast.walk(python_source.parse_file(path)):
            # a path built from the folder's name: Path("results"), ... / "results"
            if isinstance(node, ast.Constant) and node.value in ("results", "results/baseline"):
                spelled.append(f"{path.relative_to(repo_paths.ROOT)}:{node.lineno}")
    assert spelled == []


def test_the_defaults_do_not_follow_the_working_directory(tmp_path):
    code = "from bench.__main__ import build_parser; print(build_parser().parse_args([]).out)"
    shown = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(repo_paths.ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert shown.stdout.strip() == str(repo_paths.RESULTS)
