"""The Numba matrix end to end on a tiny search: this environment's Numba
as one release, a release that does not install reported beside it, and
the report drawn from the file alone."""

import sys

import pytest

from bench.baselines import c as c_baseline
from bench.by_hand.numba_matrix import matrix_report, matrix_run, numba_environments
from bench.timing.named_search import Search

TINY = (
    Search("backtrack", 5, 5, (0, 0), closed=False, budget=10**6),
    Search("warnsdorff", 5, 5, (0, 1), closed=False, budget=5_000),
)


def _fake_environments(monkeypatch, tmp_path):
    monkeypatch.setenv("KNIGHT_CACHE", str(tmp_path))

    def python_of(version):
        if version == "0.0":
            raise numba_environments.VersionMissing("numba 0.0 does not install for this Python: planted")
        return sys.executable

    monkeypatch.setattr(numba_environments, "python_of", python_of)


def test_a_release_that_does_not_install_is_reported_not_fatal(monkeypatch, tmp_path):
    try:
        matrix_run._c_side()
    except c_baseline.CompilerMissing as missing:
        pytest.skip(str(missing))
    _fake_environments(monkeypatch, tmp_path)
    measured = matrix_run.measure(["0.0", "here"], rounds=1, workloads=TINY, say=lambda line: None)
    assert measured["missing"] == {"0.0": "numba 0.0 does not install for this Python: planted"}
    assert set(measured["loaded"]) == {"here"} and measured["loaded"]["here"]["numba"]
    for row in measured["workloads"]:
        assert row["nodes"] > 0 and len(row["versions"]["here"]["ratios"]) == 1

    folder = tmp_path / "run"
    folder.mkdir()
    matrix_report.write(measured, folder)
    text = (folder / "MATRIX.md").read_text()
    assert "numba 0.0 left out: numba 0.0 does not install" in text
    assert "| backtrack 5x5 open | 41 |" in text and (folder / "matrix.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv", [["0.x"], ["--rounds", "0"], ["0.59;rm"]])
def test_bad_arguments_exit_2_before_anything_runs(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        matrix_run._arguments(argv)
    assert stopped.value.code == 2
    assert "versions are like 0.59" in capsys.readouterr().err or "--rounds" in " ".join(argv)


def test_environments_live_in_the_knight_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("KNIGHT_CACHE", str(tmp_path))
    assert numba_environments.folder("0.59") == tmp_path / "numba-0.59"


def test_pip_s_reason_is_its_error_line():
    text = "WARNING: x\nCollecting numba\nERROR: No matching distribution found for numba==0.1.*\nnote: hint\n"
    assert numba_environments._reason(text) == "ERROR: No matching distribution found for numba==0.1.*"
