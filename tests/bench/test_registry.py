"""The one list of studies (bench/studies/registry.py): every study in it
is a whole unit (it runs, draws and writes its section) in a package of
its own, every study module is in it, and nothing else in bench/ lists
studies."""

import ast
import importlib

import pytest

from bench import repo_paths
from bench.__main__ import _extras, build_parser
from bench.studies import registry
from bench.studies.corners import corners_study
from bench.studies.registry import PACKAGES, STUDIES
from bench.studies.study import Study
from tests import python_source

STUDIES_FOLDER = repo_paths.ROOT / "bench" / "studies"


def _module_name(path):
    parts = path.relative_to(repo_paths.ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _study_modules():
    """``{module: its studies}`` for the modules of bench/studies/ (its
    packages included) that hold a study (an instance of a Study subclass)."""
    found = {}
    for path in sorted(STUDIES_FOLDER.rglob("*.py")):
        name = _module_name(path)
        module = importlib.import_module(name)
        studies = [value for value in vars(module).values() if isinstance(value, Study)]
        if studies and name != "bench.studies.registry":
            found[name] = studies
    return found


@pytest.mark.parametrize("study", STUDIES, ids=[study.name for study in STUDIES])
def test_every_registered_study_runs_draws_and_writes_its_section(study):
    assert isinstance(study, Study)
    for method in ("setting", "measure", "figure", "section"):
        assert getattr(type(study), method) is not getattr(Study, method), f"{study.name} lacks {method}"
    assert callable(study.run)
    for attribute in ("name", "data_file", "extra", "skip_help", "announcement"):
        assert isinstance(getattr(study, attribute), str) and getattr(study, attribute)
    assert study.figure_file is None or study.figure_file.endswith(".png")


# the studies that run folders made before the studies became units hold,
# in the registry's order: name -> (data file, figure file, meta.json key)
KNOWN = {
    "versus": ("versus.json", "6-versus.png", "versus_rounds"),
    "corners": ("corners.json", "7-corners.png", "corners_largest"),
    "overhead": ("overhead.json", None, "overhead"),
    "counts": ("counts.json", "8-counts.png", "counts"),
    "steps": ("dp_steps.json", "9-dp-steps.png", "dp_steps"),
}


def test_names_files_and_meta_keys_are_unique_and_unchanged():
    # run folders made before the studies became units must stay readable:
    # the file names and meta.json's keys are what they were (a study added
    # later comes after these, with names of its own)
    known = STUDIES[: len(KNOWN)]
    assert [study.name for study in known] == list(KNOWN)
    assert [study.data_file for study in known] == [
        "versus.json",
        "corners.json",
        "overhead.json",
        "counts.json",
        "dp_steps.json",
    ]
    assert [study.figure_file for study in known] == [
        "6-versus.png",
        "7-corners.png",
        None,
        "8-counts.png",
        "9-dp-steps.png",
    ]
    assert [study.extra for study in known] == ["versus_rounds", "corners_largest", "overhead", "counts", "dp_steps"]
    assert {study.name: (study.data_file, study.figure_file, study.extra) for study in known} == KNOWN
    for attribute in ("name", "data_file", "extra"):
        assert len({getattr(study, attribute) for study in STUDIES}) == len(STUDIES), attribute
    figures = [study.figure_file for study in STUDIES if study.figure_file is not None]
    assert len(set(figures)) == len(figures)


def test_every_study_module_is_registered_once():
    registered = [id(study) for study in STUDIES]
    modules = _study_modules()
    assert modules, "no study modules found"
    for name, studies in modules.items():
        for study in studies:
            assert registered.count(id(study)) == 1, f"{name}'s study is not in STUDIES"


def test_each_study_is_a_package_of_its_own():
    """A study's one ``*_study`` module exports it as ``STUDY``; every
    module that holds a study is inside the package the registry names for it."""
    for package, study in zip(PACKAGES, STUDIES, strict=True):
        assert registry.study_module(package).STUDY is study
        assert package.count(".") == 2, f"{package} is not a package of bench/studies/"
    for name, studies in _study_modules().items():
        owners = [p for p, study in zip(PACKAGES, STUDIES, strict=True) if study in studies]
        assert owners and all(name == p or name.startswith(f"{p}.") for p in owners), name


def _imported(node):
    """The dotted names an import statement reaches (``from a import b``: ``a.b``)."""
    if isinstance(node, ast.ImportFrom):
        return [f"{node.module}.{alias.name}" for alias in node.names]
    return [alias.name for alias in node.names]


def test_the_registry_is_the_only_list_of_studies():
    """No module of bench/ outside a study's package but the registry
    imports that package or its study module: the harness and the report
    reach the studies through STUDIES alone. (An experiment may borrow a
    study's searches: bench/by_hand/numba_matrix imports versus_workloads.)"""
    holders = set(_study_modules())
    modules = {_module_name(path) for path in STUDIES_FOLDER.rglob("*.py")}
    offenders = []
    for path in sorted((repo_paths.ROOT / "bench").rglob("*.py")):
        name = _module_name(path)
        if name == "bench.studies.registry":
            continue
        for node in ast.walk(python_source.parse_file(path)):
            if not isinstance(node, ast.ImportFrom | ast.Import):
                continue
            for imported in _imported(node):
                # the holder itself, or a name in it (``from bench.studies.versus import STUDY``)
                held = imported in holders or (imported.rpartition(".")[0] in holders and imported not in modules)
                package = ".".join(imported.split(".")[:3])
                if held and not (name == package or name.startswith(f"{package}.")):
                    offenders.append(f"{path.relative_to(repo_paths.ROOT)} imports {imported}")
    assert offenders == []


@pytest.mark.parametrize("study", STUDIES, ids=[study.name for study in STUDIES])
def test_a_study_keeps_the_file_a_resumed_run_measured(study, tmp_path, monkeypatch):
    (tmp_path / study.data_file).write_text("{}")
    monkeypatch.setattr(type(study), "measure", lambda self, setting: pytest.fail("measured again"))
    assert study.run(tmp_path, study.setting(quick=True)) == tmp_path / study.data_file
    assert (tmp_path / study.data_file).read_text() == "{}"


@pytest.mark.parametrize("study", STUDIES, ids=[study.name for study in STUDIES])
def test_each_study_has_its_skip_option_in_python_m_bench(study):
    planned = _extras(build_parser().parse_args(["--quick", f"--no-{study.name}"]))
    assert planned[study.extra] is None
    others = [other for other in STUDIES if other is not study]
    assert all(planned[other.extra] == other.setting(quick=True) for other in others)
    assert _extras(build_parser().parse_args(["--sizes", "5"])) is None


def test_only_preset_sweeps_plan_the_extras():
    def planned(*argv):
        return _extras(build_parser().parse_args(list(argv)))

    def known(extras):
        # the known studies' settings; every study of the registry has its key
        assert set(extras) == {study.extra for study in STUDIES}
        return {key: extras[key] for _, _, key in KNOWN.values()}

    assert known(planned("--quick")) == {
        "versus_rounds": 1,
        "corners_largest": corners_study.LARGEST_QUICK,
        "overhead": "quick",
        "counts": "quick",
        "dp_steps": "quick",
    }
    assert known(planned()) == {
        "versus_rounds": 5,
        "corners_largest": corners_study.LARGEST,
        "overhead": "default",
        "counts": "default",
        "dp_steps": "default",
    }
    assert known(planned("--no-versus", "--no-corners", "--no-overhead", "--no-counts", "--no-steps")) == {
        "versus_rounds": None,
        "corners_largest": None,
        "overhead": None,
        "counts": None,
        "dp_steps": None,
    }
    assert planned(*(f"--no-{study.name}" for study in STUDIES)) == dict.fromkeys(study.extra for study in STUDIES)
    assert planned("--sizes", "5-6") is None


def test_the_registry_takes_every_folder_of_bench_studies_in_its_order():
    found = {name.rpartition(".")[2] for name in PACKAGES}
    folders = {path.name for path in STUDIES_FOLDER.iterdir() if (path / "__init__.py").is_file()}
    assert found == folders
    assert set(registry.ORDER) <= folders, "ORDER names a folder that is not there"
    assert PACKAGES[: len(registry.ORDER)] == tuple(f"bench.studies.{name}" for name in registry.ORDER)


NEW_STUDY = """
from bench.studies.study import Study


class Tally(Study):
    name = "tally"
    data_file = "tally.json"
    extra = "tally"
    skip_help = "skip the tally"
    announcement = "tally ({setting})"

    def setting(self, quick):
        return "quick" if quick else "default"

    def measure(self, setting):
        return {"setting": setting}

    def figure(self, measured, path):
        return None

    def section(self, measured, figure, studied):
        return ["## Tally", "", f"tallied at {measured['setting']}"]


STUDY = Tally()
"""


def _new_study_folder(root, folder, name):
    """A studies folder ``folder`` under ``root`` with a copy of bench/'s
    ordered study names (empty packages) and one new study ``name``."""
    studies = root / folder
    for existing in registry.ORDER:
        (studies / existing).mkdir(parents=True)
        (studies / existing / "__init__.py").write_text("")
    (studies / "__init__.py").write_text("")
    (studies / "notes").mkdir()  # a folder that is no package is no study
    (studies / name).mkdir()
    (studies / name / f"{name}_study.py").write_text(NEW_STUDY)
    (studies / name / "__init__.py").write_text("")
    return studies


def test_a_new_study_folder_is_found_run_and_reported(tmp_path, monkeypatch):
    """Adding a study is its folder: the registry finds it (after the
    ordered ones), ``python -m bench`` offers ``--no-NAME`` and plans its
    setting, the run writes its file and the report takes its section,
    with no other file touched."""
    import bench.__main__ as harness

    studies = _new_study_folder(tmp_path, "scratch_studies", "tally")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = registry.packages(studies, "scratch_studies")
    assert found == (*(f"scratch_studies.{name}" for name in registry.ORDER), "scratch_studies.tally")
    (tally,) = registry.studies(found[-1:])
    assert isinstance(tally, Study) and tally.name == "tally"
    monkeypatch.setattr(harness, "STUDIES", (*STUDIES, tally))
    assert _extras(build_parser().parse_args(["--quick"]))["tally"] == "quick"
    assert _extras(build_parser().parse_args(["--quick", "--no-tally"]))["tally"] is None
    assert tally.run(tmp_path, "quick") == tmp_path / "tally.json"
    assert tally.section({"setting": "quick"}, None, {}) == ["## Tally", "", "tallied at quick"]


def test_a_study_folder_without_its_study_is_one_line(tmp_path, monkeypatch):
    studies = _new_study_folder(tmp_path, "broken_studies", "tally")
    (studies / "tally" / "tally_study.py").unlink()
    monkeypatch.syspath_prepend(str(tmp_path))
    found = registry.packages(studies, "broken_studies")
    assert found[-1] == "broken_studies.tally"
    with pytest.raises(ImportError, match=r"^broken_studies\.tally: .* exports no STUDY$"):
        registry.studies(found[-1:])
