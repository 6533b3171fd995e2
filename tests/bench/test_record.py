"""runs.csv and meta.json: their schema, and that an interrupted writer never
leaves a file the reader chokes on."""

import json
import os

import pytest

from bench.run_folder import folders, record
from knight.errors import InvalidArgument

HEADER = (
    "rows,cols,start_row,start_col,method,tiebreak,closed,represents,status,nodes,budget,"
    "repeats,median_s,min_s,max_s,nodes_per_s,reason"
)


def _row(**changes):
    values = dict(
        rows=5,
        cols=5,
        start_row=1,
        start_col=1,
        method="warnsdorff",
        tiebreak="first",
        closed=False,
        represents=1,
        status="found",
        nodes=25,
        budget=1000,
        repeats=3,
        median_s=2.5e-06,
        min_s=2e-06,
        max_s=3e-06,
        nodes_per_s=1e7,
        reason="",
    )
    values.update(changes)
    return record.RunRecord(**values)


def test_the_header_is_the_documented_schema():
    assert ",".join(record.COLUMNS) == HEADER


def test_rows_round_trip(tmp_path):
    rows = [
        _row(),
        _row(
            start_col=2,
            status="impossible",
            nodes=0,
            repeats=0,
            median_s=None,
            min_s=None,
            max_s=None,
            nodes_per_s=None,
            reason="colour parity: on a board, with commas",
        ),
        _row(method="backtrack", tiebreak="", closed=True, status="budget", nodes=1000),
    ]
    with record.RunsFile.open(tmp_path / "runs.csv") as out:
        for row in rows:
            out.append(row)
    assert (tmp_path / "runs.csv").read_text().splitlines()[0] == HEADER + ",checksum"
    assert record.read_runs(tmp_path / "runs.csv") == rows


def test_the_reader_skips_a_line_cut_short(tmp_path):
    path = tmp_path / "runs.csv"
    with record.RunsFile.open(path) as out:
        out.append(_row())
    whole = record.to_line(_row(start_col=3))
    with open(path, "a") as stream:
        stream.write(whole[: len(whole) // 2])
    assert record.read_runs(path) == [_row()]


@pytest.mark.parametrize(
    "junk", ["not,a,row", "5,5,1,1,warnsdorff,first,maybe,1,found,25,1000,3,,,,,", "\x00\x01", "[1,2,3]"]
)
def test_junk_in_the_middle_is_refused_naming_the_line(tmp_path, junk):
    """Issue 13, item 5: junk lines were skipped silently (and a resumed
    sweep then ran them again, or lost them from the report)."""
    path = tmp_path / "runs.csv"
    with record.RunsFile.open(path) as out:
        out.append(_row())
    with open(path, "a") as stream:
        # sealed with its checksum, as a writer would: the row itself is refused
        stream.write(record.RUNS_FORMAT.line(junk) + "\n" + record.RUNS_FORMAT.line(record.to_line(_row())[:-1]))
    _refused_and_untouched(path, r"runs\.csv, line 3: not a record")


def _refused_and_untouched(path, message):
    """Both readers of runs.csv refuse ``path`` with ``message``; it is left as it was."""
    before = path.read_bytes()
    for read in (record.read_runs, record.RunsFile.open):
        with pytest.raises(InvalidArgument, match=message):
            read(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("edit", [lambda line: line.replace(",25,", ",26,"), lambda line: line.rpartition(",")[0]])
def test_a_row_edited_or_without_its_checksum_is_damage(tmp_path, edit):
    """Issue 29, item 1: a complete line whose checksum fails is refused,
    naming the line, and the file is left as it was."""
    path = tmp_path / "runs.csv"
    with record.RunsFile.open(path) as out:
        out.append(_row())
        out.append(_row(start_col=2))
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], edit(lines[1]), lines[2]]) + "\n")
    _refused_and_untouched(path, r"runs\.csv, line 2: a damaged line of a runs\.csv")


def test_a_runs_csv_without_checksums_is_another_version(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text(HEADER + "\n" + record.to_line(_row()))
    with pytest.raises(InvalidArgument, match=r"is a runs\.csv of the unchecked format"):
        record.read_runs(path)


def test_appending_after_a_crash_trims_the_cut_line(tmp_path):
    path = tmp_path / "runs.csv"
    with record.RunsFile.open(path) as out:
        out.append(_row())
    with open(path, "a") as stream:
        stream.write(record.to_line(_row(start_col=3))[:10])
    with record.RunsFile.open(path) as out:
        out.append(_row(start_col=4))
    assert [row.start_col for row in record.read_runs(path)] == [1, 4]


def test_a_file_without_the_header_is_refused(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("5,5,1\n")
    with pytest.raises(InvalidArgument, match=r"is not a runs\.csv"):
        record.read_runs(path)


def test_json_is_replaced_whole(tmp_path):
    path = tmp_path / "meta.json"
    record.write_json(path, {"a": 1})
    record.write_json(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 2}
    assert os.listdir(tmp_path) == ["meta.json"]


def test_run_folders_are_named_by_date_and_commit(tmp_path):
    first = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    second = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    dirty = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", True)
    assert [f.name for f in (first, second, dirty)] == [
        "2026-11-29-abc1234",
        "2026-11-29-abc1234-2",
        "2026-11-29-abc1234-dirty",
    ]


def test_latest_points_at_the_newest_run(tmp_path):
    older = folders.new_run_folder(tmp_path, "2026-11-28", "abc1234", False)
    newer = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    folders.point_latest(older)
    folders.point_latest(newer)
    assert folders.resolve(tmp_path / "latest") == newer
    # relative, so that the results folder can be moved or copied whole
    assert os.readlink(tmp_path / "latest") == newer.name


def test_latest_may_be_a_file_naming_the_folder(tmp_path):
    run = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    (tmp_path / "latest").write_text(run.name + "\n")
    assert folders.resolve(tmp_path / "latest") == run


def test_no_latest_yet_says_what_to_do(tmp_path):
    with pytest.raises(InvalidArgument, match="make bench"):
        folders.resolve(tmp_path / "latest")


def test_a_users_files_beside_latest_are_never_touched(tmp_path):
    """Issue 19: a user's `.latest.tmp` was deleted by any run, and a user's
    own `latest` symlink replaced."""
    (tmp_path / ".latest.tmp").write_text("mine")
    run = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    folders.point_latest(run)
    assert (tmp_path / ".latest.tmp").read_text() == "mine"
    assert sorted(os.listdir(tmp_path)) == sorted([".latest.tmp", "latest", run.name])


@pytest.mark.parametrize("target", ["/home/someone/notes", "my-stuff", "../elsewhere/2026-11-29-abc1234"])
def test_a_users_own_latest_link_is_never_replaced(tmp_path, target):
    os.symlink(target, tmp_path / "latest")
    with pytest.raises(InvalidArgument, match="was not written by python -m bench"):
        folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    assert os.readlink(tmp_path / "latest") == target


def test_a_latest_whose_run_folder_was_removed_is_still_ours(tmp_path):
    os.symlink("2026-11-28-abc1234", tmp_path / "latest")
    run = folders.new_run_folder(tmp_path, "2026-11-29", "abc1234", False)
    folders.point_latest(run)
    assert os.readlink(tmp_path / "latest") == run.name
