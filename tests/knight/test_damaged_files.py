"""Every file knight reads back, damaged (issue 29, items 1 and 5): any bit
flipped or byte changed in a finished DFS resume file is refused in one
line or gives the true count, never another; a record edited, moved from
another file or of the old unchecked format is refused; and JSON nested to
any depth in any file read back is refused in one line (or read, when
shallow), never a RecursionError."""

import contextlib
import io
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knight import cli, exit_status
from knight.files import journal, strict_json

DAMAGE = settings(max_examples=120, deadline=None, database=None, suppress_health_check=list(HealthCheck))
# a 5x5 count cut at depth 4: a few hundred records, counted in a moment
COUNT = ["count", "5", "5", "--depth", "4"]
TRUE_TOURS = 1728  # directed open tours of 5x5 (OEIS A165134)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


def _one_line_refusal(status, out, err, status_expected=exit_status.EXIT_USAGE):
    assert status == status_expected, err
    assert out == "" and err.startswith("knight: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The bytes of a finished resume file of ``COUNT``."""
    path = tmp_path_factory.mktemp("finished") / "units.jsonl"
    status, out, err = _run([*COUNT, "--resume", str(path), "--json"])
    assert status == 0 and json.loads(out)["tours"] == TRUE_TOURS, err
    return path.read_bytes()


def _resumed(tmp_path_factory, data):
    """``COUNT`` resumed from a file holding ``data``: refused in one line
    (the file then unchanged), or the true count."""
    path = tmp_path_factory.mktemp("damaged") / "units.jsonl"
    path.write_bytes(data)
    status, out, err = _run([*COUNT, "--resume", str(path), "--json"])
    if status == 0:
        assert json.loads(out)["tours"] == TRUE_TOURS, "a damaged resume file gave another count"
    else:
        _one_line_refusal(status, out, err)
        assert path.read_bytes() == data
    return status, err


@DAMAGE
@given(data=st.data())
def test_any_single_bit_flip_is_refused_or_the_true_count(tmp_path_factory, finished, data):
    bit = data.draw(st.integers(0, 8 * len(finished) - 1))
    damaged = bytearray(finished)
    damaged[bit // 8] ^= 1 << (bit % 8)
    _resumed(tmp_path_factory, bytes(damaged))


@DAMAGE
@given(data=st.data())
def test_any_byte_changed_is_refused_or_the_true_count(tmp_path_factory, finished, data):
    where = data.draw(st.integers(0, len(finished) - 1))
    value = data.draw(st.integers(0, 255).filter(lambda byte: byte != finished[where]))
    damaged = bytearray(finished)
    damaged[where] = value
    _resumed(tmp_path_factory, bytes(damaged))


def _lines(finished):
    return finished.decode().splitlines()


def _tours_plus(line, more):
    text, _, checksum = line.rpartition("\t")
    record = json.loads(text)
    return json.dumps({**record, "tours": record["tours"] + more, "status": 0}), checksum


def test_the_probes_edit_a_units_tours_is_refused(tmp_path_factory, finished):
    """The probe's case: one unit's tours changed (+1, +10) and the line
    written back with its old checksum, or with none."""
    lines = _lines(finished)
    unit = next(number for number, line in enumerate(lines[1:], 1) if json.loads(line.split("\t")[0])["tours"])
    for more in (1, 10):
        text, checksum = _tours_plus(lines[unit], more)
        for edited in (f"{text}\t{checksum}", text):
            damaged = "\n".join([*lines[:unit], edited, *lines[unit + 1 :]]) + "\n"
            status, err = _resumed(tmp_path_factory, damaged.encode())
            assert status == exit_status.EXIT_USAGE and f"line {unit + 1}: a damaged line" in err


def test_a_record_moved_from_another_count_is_refused(tmp_path_factory, finished):
    """A record sealed for another count's header (another budget) fails
    this file's check: checksums are keyed to the header."""
    lines = _lines(finished)
    other = json.loads(lines[0]) | {"budget": 5}
    moved = journal.Format("a knight resume file", json.dumps(other), parse=None).line(lines[1].rpartition("\t")[0])
    damaged = "\n".join([lines[0], moved, *lines[2:]]) + "\n"
    status, err = _resumed(tmp_path_factory, damaged.encode())
    assert status == exit_status.EXIT_USAGE and "line 2: a damaged line" in err


def test_a_resume_file_of_the_unchecked_format_is_refused_naming_it(tmp_path_factory, finished):
    lines = _lines(finished)
    header = json.loads(lines[0])
    header.pop("version")
    old = "\n".join([json.dumps(header), *(line.rpartition("\t")[0] for line in lines[1:])]) + "\n"
    status, err = _resumed(tmp_path_factory, old.encode())
    assert status == exit_status.EXIT_USAGE
    assert "is a resume file of version 1, whose records carry no checksum" in err
    later = "\n".join([json.dumps({**header, "version": 3}), *lines[1:]]) + "\n"
    status, err = _resumed(tmp_path_factory, later.encode())
    assert status == exit_status.EXIT_USAGE and "of version 3; this knight reads version 2" in err


def test_a_torn_last_line_is_still_recovered(tmp_path_factory, finished):
    status, _ = _resumed(tmp_path_factory, finished[: len(finished) - 9])
    assert status == 0


# --- nesting (item 5) ------------------------------------------------------

depths = st.integers(1, 3000) | st.integers(1, 200_000)


def _nested(depth):
    return "[" * depth + "]" * depth


@settings(max_examples=60, deadline=None, database=None)
@given(depth=depths)
def test_the_bounded_reader_refuses_any_depth_past_its_limit(depth):
    if depth <= strict_json.MAX_DEPTH:
        assert strict_json.loads(_nested(depth)) == json.loads(_nested(depth))
    else:
        with pytest.raises(ValueError, match="nested deeper than"):
            strict_json.loads(_nested(depth))
    # brackets inside a string are text, at any depth
    assert strict_json.loads(json.dumps("[" * depth)) == "[" * depth


NESTED = settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@NESTED
@given(depth=depths, where=st.sampled_from(["header", "record"]))
def test_a_resume_file_nested_at_any_depth_is_one_line(tmp_path_factory, finished, depth, where):
    lines = _lines(finished)
    if where == "header":
        lines[0] = _nested(depth)
    else:
        text = _nested(depth)
        lines.insert(1, journal.Format("a knight resume file", lines[0], parse=None).line(text))
    status, _ = _resumed(tmp_path_factory, ("\n".join(lines) + "\n").encode())
    assert status == exit_status.EXIT_USAGE


@NESTED
@given(depth=depths)
def test_a_dp_checkpoint_header_nested_at_any_depth_is_one_line(tmp_path_factory, depth):
    path = tmp_path_factory.mktemp("dp") / "ck.npz"
    header = np.frombuffer(_nested(depth).encode(), dtype=np.uint8)
    np.savez(path, header=header, keys=np.zeros(0, np.uint64), counts=np.zeros((0, 1), np.uint64))
    before = path.read_bytes()
    _one_line_refusal(*_run(["count", "3", "4", "--method", "dp", "--resume", str(path)]))
    assert path.read_bytes() == before


@NESTED
@given(depth=depths)
def test_a_cluster_checkpoint_nested_at_any_depth_is_one_line(tmp_path_factory, depth):
    from knight.counting.dp.checkpoints.cluster_checkpoint import ClusterCheckpoint
    from knight.errors import InvalidArgument

    path = tmp_path_factory.mktemp("cluster") / "ck.json"
    path.write_text(_nested(depth))
    with pytest.raises(InvalidArgument, match="is not a knight dp cluster checkpoint") as refused:
        ClusterCheckpoint.check(path)
    assert "\n" not in str(refused.value)
    assert path.read_text() == _nested(depth)


@DAMAGE
@given(data=st.data())
def test_damage_is_refused_before_the_estimate_is_printed(tmp_path_factory, monkeypatch, finished, data):
    """Issue 57: ``knight count 5 8 --method dfs --resume F``, one record's
    tours changed, printed Knuth's estimate and then the refusal: two lines.
    With the estimate printed for every board, a byte changed in any record
    is still refused in one line, before it (or gives the true count)."""
    from knight.cli import projection

    monkeypatch.setattr(projection, "PROJECT_COUNTS_ABOVE", 0)
    header = finished.index(b"\n") + 1
    where = data.draw(st.integers(header, len(finished) - 1))
    value = data.draw(st.integers(0, 255).filter(lambda byte: byte != finished[where]))
    damaged = bytearray(finished)
    damaged[where] = value
    status, err = _resumed(tmp_path_factory, bytes(damaged))
    assert status == 0 or "estimate" not in err


def test_the_probes_damage_is_refused_before_the_estimate(tmp_path_factory, monkeypatch, finished):
    from knight.cli import projection

    monkeypatch.setattr(projection, "PROJECT_COUNTS_ABOVE", 0)
    lines = _lines(finished)
    text, checksum = _tours_plus(lines[1], 1)
    damaged = "\n".join([lines[0], f"{text}\t{checksum}", *lines[2:]]) + "\n"
    status, err = _resumed(tmp_path_factory, damaged.encode())
    assert status == exit_status.EXIT_USAGE and "line 2: a damaged line" in err
