"""``knight solve|count --svg``: the picture beside the usual output, on
standard output with ``-``, and targets refused in one line with exit 2,
before the search and with nothing left behind."""

import contextlib
import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import knight
from knight import cli, drawing, exit_status
from tests.knight.test_drawing import heatmap_cells, path_squares


def run(*argv):
    out = io.StringIO()
    status = cli.main(list(argv), out=out)
    return status, out.getvalue()


def test_solve_draws_the_tour_it_prints(tmp_path):
    target = tmp_path / "tour.svg"
    status, text = run("solve", "8", "8", "--svg", str(target))
    # the text is unchanged (but for the time)
    assert status == 0 and run("solve", "8", "8")[1].split("seconds")[0] == text.split("seconds")[0]
    board = [[int(step) for step in line.split()] for line in text.splitlines()[:8]]
    squares = path_squares(ET.parse(target).getroot(), 8)
    assert knight.is_tour(8, 8, squares)
    assert [board[r][c] for r, c in squares] == list(range(1, 65))
    assert sorted(tmp_path.iterdir()) == [target]  # no temporary left


def test_a_closed_solve_draws_a_closed_path(tmp_path):
    target = tmp_path / "closed.svg"
    assert run("solve", "6", "6", "--closed", "--svg", str(target))[0] == 0
    squares = path_squares(ET.parse(target).getroot(), 6)
    assert squares[0] == squares[-1] and knight.is_tour(6, 6, squares[:-1], closed=True)


def test_svg_to_stdout_moves_the_text_to_stderr(capsys):
    status = cli.main(["solve", "5", "5", "--svg", "-"])
    out, err = capsys.readouterr()
    assert status == 0 and knight.is_tour(5, 5, path_squares(ET.fromstring(out.encode()), 5))
    assert "status   found" in err


def test_json_and_a_drawing_file_together(tmp_path):
    target = tmp_path / "tour.svg"
    status, text = run("solve", "5", "5", "--json", "--svg", str(target))
    assert status == 0 and '"tour": [[1, 1]' in text and target.read_text().startswith(drawing.HEADER)


def test_count_draws_the_grid_it_prints(tmp_path):
    target = tmp_path / "grid.svg"
    status, text = run("count", "5", "5", "--svg", str(target))
    assert status == 0
    grid = [line.split() for line in text.splitlines()[:5]]
    cells = heatmap_cells(ET.parse(target).getroot())
    for (r, c), (_, shown) in cells.items():
        assert shown == grid[r][c] or (shown == "\u00d7" and grid[r][c] == "0")


def test_a_board_without_a_tour_draws_nothing(tmp_path, capsys):
    target = tmp_path / "none.svg"
    assert cli.main(["solve", "4", "4", "--method", "backtrack", "--svg", str(target)]) == 0
    assert "nothing was drawn" in capsys.readouterr().err and not target.exists()


def _refusals(tmp_path):
    (tmp_path / "notes.svg").write_text("my notes")
    (tmp_path / "folder").mkdir()
    return [
        (["solve", "8", "8", "--svg", str(tmp_path / "folder")], "is a folder"),
        (["solve", "8", "8", "--svg", str(tmp_path / "missing" / "t.svg")], "does not exist"),
        (["solve", "8", "8", "--svg", str(tmp_path / "notes.svg")], "is not a knight drawing"),
        (["solve", "8", "8", "--svg", os.devnull], "is not a regular file"),
        (["solve", "2001", "2000", "--method", "greedy", "--svg", str(tmp_path / "t.svg")], "too large to draw"),
        # past the printed grid's limit, the same as the drawing's: refused as either
        (["count", "101", "100", "--svg", str(tmp_path / "t.svg")], "too large to print (at most 10000)"),
        (["count", "5", "5", "--start", "1,1", "--svg", str(tmp_path / "t.svg")], "leave out --start"),
        (["solve", "5", "5", "--json", "--svg", "-"], "both write to standard output"),
        (["solve", "5", "5", "--svg", ""], "--svg needs a value, got ''"),
    ]


def test_hostile_targets_fail_in_one_line_before_searching(tmp_path, capsys, monkeypatch):
    from knight.search import solver

    def no_search(*args):
        raise AssertionError("searched before refusing")

    monkeypatch.setattr(solver, "solve", no_search)
    for argv, message in _refusals(tmp_path):
        before = sorted((path.name, path.read_bytes() if path.is_file() else None) for path in tmp_path.iterdir())
        assert run(*argv) == (2, ""), argv
        err = capsys.readouterr().err
        assert err.startswith("knight: error: ") and message in err and err.count("\n") == 1, (argv, err)
        after = sorted((path.name, path.read_bytes() if path.is_file() else None) for path in tmp_path.iterdir())
        assert after == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_an_unwritable_folder_is_refused(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        assert run("solve", "5", "5", "--svg", str(locked / "t.svg")) == (2, "")
        assert "Permission denied" in capsys.readouterr().err and list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_a_write_that_fails_is_one_line_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    # the check passed, then the disk filled: found only when writing
    def full(path, fill, **options):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr("knight.files.atomic_write.replace", full)
    status, out = run("solve", "5", "5", "--svg", str(tmp_path / "t.svg"))
    # the result is printed first: a picture that cannot be written loses no result
    assert status == 74 and "status   found" in out
    err = capsys.readouterr().err
    assert err == f"knight: error: {tmp_path / 't.svg'}: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


def test_the_largest_board_drawn_from_the_command_line(tmp_path):
    target = tmp_path / "greedy.svg"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "knight",
            "solve",
            "1000",
            "1000",
            "--method",
            "greedy",
            "--tiebreak",
            "roth",
            "--svg",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "status   found" in done.stdout, done.stderr
    assert target.stat().st_size < drawing.MAX_TOUR_BYTES
    squares = path_squares(ET.parse(target).getroot(), 1000)
    assert len(squares) == 1_000_000 // drawing.stride(1_000_000) + 1  # every 50th square, and the last


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="no sysfs")
def test_a_folder_no_file_can_be_made_in_is_one_line(capsys):
    # sysfs refuses new files even to root, who passes every permission
    # check: found by making the temporary before the search, exit status 2
    assert run("solve", "5", "5", "--svg", "/sys/kernel/knight-tour.svg") == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("knight: error: ") and "knight-tour.svg" in err and err.count("\n") == 1
    assert not any(name.startswith(".knight-tour") for name in os.listdir("/sys/kernel"))


# --- the result before the picture; a picture only over the file checked ----

SIDE = settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
COMMANDS = {
    "solve": (["solve", "5", "5"], "status   found"),
    "count": (["count", "5", "5"], "tours    1728 directed open tours"),
}


def _leftovers(folder):
    """Files in ``folder`` that only a run of knight could have left: its temporaries."""
    return [path.name for path in folder.rglob("*") if ".knight-" in path.name]


@SIDE
@given(
    st.sampled_from(sorted(COMMANDS)),
    st.integers(1, 300),
    st.sampled_from(["", "/", "/.", "/..", "//"]),
    st.sampled_from(["t", "é", "\udcff"]),
)
def test_a_target_named_anyhow_is_refused_before_the_work_or_drawn_after_it(
    tmp_path_factory, command, length, tail, letter
):
    """Issue 57: a legal name of 250 characters (its temporary's name was
    longer) and ``mine.svg/`` passed the check, failed after the count, and
    the count was lost. Now a name is refused before the work (exit 2,
    nothing printed) or the result is printed and the drawing written."""
    folder = tmp_path_factory.mktemp("named")
    name = (letter * length)[:length] + ".svg" + tail
    argv, result = COMMANDS[command]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main([*argv, "--svg", str(folder / name)], out=out)
    if status == 0:
        assert result in out.getvalue() and err.getvalue() == ""
        assert (folder / name).read_text().startswith(drawing.HEADER)
    else:
        assert (status, out.getvalue()) == (2, ""), err.getvalue()
        assert err.getvalue().startswith("knight: error: ") and err.getvalue().count("\n") == 1
        assert list(folder.iterdir()) == []
    assert _leftovers(folder) == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_full_disk_is_refused_before_the_work(small_filesystem, command, capsys):
    """Issue 57: ``--svg /full-tmpfs/grid.svg`` counted, then exited 74 with
    nothing printed. The temporary is made and written before the work."""
    from tests.conftest import fill

    fill(small_filesystem, 0)
    argv, _ = COMMANDS[command]
    assert run(*argv, "--svg", str(small_filesystem / "grid.svg")) == (2, "")
    err = capsys.readouterr().err
    assert err.endswith("No space left on device\n") and err.count("\n") == 1
    assert sorted(path.name for path in small_filesystem.iterdir()) == ["filler"]


def _change(path, how):
    """Change the file at ``path`` as another program would, ``how``."""
    if how == "appears" or how == "rewritten":
        path.write_text("my own picture" if how == "appears" else "my own picture, redrawn")
    elif how == "same size":
        path.write_text(path.read_text()[::-1])
    elif how == "touched":
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    elif how == "replaced":
        other = path.with_name("other")
        other.write_text(path.read_text())
        os.replace(other, path)
    elif how == "removed":
        path.unlink()


@SIDE
@given(
    st.sampled_from(sorted(COMMANDS)),
    st.booleans(),
    st.sampled_from(["appears", "rewritten", "same size", "touched", "replaced", "removed", "none"]),
    st.integers(0, 2),
)
def test_a_file_changed_during_the_work_is_never_replaced(tmp_path_factory, monkeypatch, command, there, how, taken):
    """Issue 57: a ``race.svg`` written while the count ran was replaced by
    its drawing. The file is replaced only if it is still the one checked;
    otherwise it is left as it is, the drawing kept under a side name
    (never over another file), one line, exit 74, and the result printed."""
    from knight.counting import driver
    from knight.search import solver

    folder = tmp_path_factory.mktemp("race")
    target = folder / "race.svg"
    if there:
        target.write_text(drawing.tour_svg(1, 1, [0]))
    for number in range(1, taken + 1):  # side names of the user's, to be passed over
        (folder / ("race.new.svg" if number == 1 else f"race.new-{number}.svg")).write_text("mine")
    if (how == "appears") == there and how != "none":
        how = "none"  # no such change can happen to that file
    module, name = (solver, "solve") if command == "solve" else (driver, "count_prepared")
    work = getattr(module, name)

    def meanwhile(*args, **kwargs):
        _change(target, how)
        return work(*args, **kwargs)

    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    argv, result = COMMANDS[command]
    out, err = io.StringIO(), io.StringIO()
    # one patch per example: Hypothesis runs them all in one test call
    with monkeypatch.context() as patch, contextlib.redirect_stderr(err):
        patch.setattr(module, name, meanwhile)
        status = cli.main([*argv, "--svg", str(target)], out=out)
    assert result in out.getvalue(), err.getvalue()
    if how == "none":
        assert (status, err.getvalue()) == (0, "")
        assert target.read_text().startswith(drawing.HEADER) and target.read_bytes() != before.get("race.svg")
        return
    side = folder / ("race.new.svg" if taken == 0 else f"race.new-{taken + 1}.svg")
    assert status == exit_status.EXIT_IO and err.getvalue().count("\n") == 1, err.getvalue()
    assert (
        err.getvalue().startswith(f"knight: error: {target}: another program wrote it") and str(side) in err.getvalue()
    )
    assert side.read_text().startswith(drawing.HEADER)
    after = {path.name: path.read_bytes() for path in folder.iterdir() if path != side}
    changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
    assert changed <= {"race.svg", "other"} and _leftovers(folder) == []
    if how != "removed":
        assert not target.read_text().startswith(drawing.HEADER) or how in ("touched", "replaced")
