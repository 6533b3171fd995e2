"""The wheel built from this tree: what it holds, what it asks pip for, and
that it installs into a fresh virtual environment and runs ``knight``."""

import email
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# what the build reads; copied, so that building writes nothing into the tree
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "knight")


# uv where make installed it (a tenth of pip's time to build the wheel or
# install it: pip imports itself in each call), pip where it did not
UV = shutil.which("uv", path=str(Path(sys.executable).parent))


def _build_wheel(source, out):
    if UV:
        command = [UV, "build", "--wheel", "--no-build-isolation", "--python", sys.executable, "-q", "-o", str(out)]
    else:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out)]
    subprocess.run([*command, str(source)], check=True, capture_output=True, text=True)


def _install(wheel, python):
    if UV:
        command = [UV, "pip", "install", "-q", "--python", str(python), "--no-deps", "--offline", str(wheel)]
    else:
        pip = [sys.executable, "-m", "pip", "--python", str(python)]
        command = [*pip, "install", "-q", "--no-deps", "--no-index", str(wheel)]
    subprocess.run(command, check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel of this tree, built without build isolation (the dev
    environment has the setuptools pyproject.toml asks for)."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    _build_wheel(source, out)
    # the distribution is knight-tours (the index's "knight" is another project); the package is knight
    (built,) = out.glob("knight_tours-*.whl")
    return built


def _metadata(wheel):
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(archive.read(name))


def test_the_wheel_holds_the_package_and_its_licence_only(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
        scripts = archive.read(entry_points).decode()
    # the package's modules and its one data file, the DP's measured step curves
    files = [*(ROOT / "knight").rglob("*.py"), *(ROOT / "knight").rglob("*.json")]
    modules = sorted(path.relative_to(ROOT).as_posix() for path in files)
    assert sorted(name for name in names if name.startswith("knight/")) == modules
    assert not [name for name in names if name.split("/")[0] in ("bench", "tests")]
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "knight = knight.cli:main" in scripts


def test_pip_install_knight_asks_for_the_solver_and_counter_only(wheel):
    metadata = _metadata(wheel)
    assert metadata["Name"] == "knight-tours"
    assert metadata["License-Expression"] == "MIT"
    requires = metadata.get_all("Requires-Dist")
    plain = sorted(line.split(">")[0] for line in requires if "extra ==" not in line)
    assert plain == ["numba", "numpy", "tqdm"]
    bench = [line for line in requires if 'extra == "bench"' in line]
    assert {line.split(">")[0] for line in bench} == {"cython", "matplotlib", "pytest-benchmark"}


def test_the_wheel_installs_and_runs_in_a_fresh_venv(wheel, tmp_path):
    # a venv without pip (fast to make), knight from the wheel and its
    # dependencies from this environment's site-packages (a path entry: the
    # editable install of this tree there is not activated)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(subprocess.run([python, "-c", ask], check=True, capture_output=True, text=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _install(wheel, python)

    def knight(*argv):
        done = subprocess.run([venv / "bin" / "knight", *argv], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert knight("exists", "8", "8").startswith("yes: open knight's tours exist on 8x8")
    solved = knight("solve", "5", "5")
    assert "status   found" in solved and solved.splitlines()[0].split()[0] == "1"
    # run away from the tree: `python -c` puts the working directory first
    where = subprocess.run(
        [python, "-c", "import knight; print(knight.__file__)"], capture_output=True, text=True, cwd=tmp_path
    )
    assert Path(where.stdout.strip()).is_relative_to(site)
