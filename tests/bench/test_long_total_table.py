"""bench.by_hand.long_total_table: a run's log, killed and resumed, as
one row a step, each step's seconds and disk counted within its segment."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.by_hand import long_total_table
from knight.harness_api import exit_status

_GIB = 2**30


def _step(seconds, step, held, disk, spill=0, ram=1 << 30, peak_disk=0, peak_ram=0):
    return {
        "seconds": seconds,
        "step": step,
        "steps": 4,
        "held": held,
        "ram_bytes": ram,
        "spill_bytes": spill,
        "disk_bytes": disk,
        "step_peaks": {"ram_bytes": peak_ram, "disk_bytes": peak_disk},
    }


# the keys of long_total's records, drawn as often as any: the fields a step's record needs
_KEYS = ("seconds", "start", "step", "held", "ram_bytes", "spill_bytes", "disk_bytes", "step_peaks", "work", "x")


def _log():
    records = [
        {"seconds": 0.0, "start": [4, 4], "closed": False, "memory": None, "pid": 1},
        _step(50.0, 1, 10, 0),
        _step(60.0, 2, 20, 2 * _GIB, spill=100, peak_disk=3 * _GIB, peak_ram=5 * _GIB),
        # killed in step 3, resumed from step 2's checkpoint: a new clock
        {"seconds": 0.0, "start": [4, 4], "closed": False, "memory": None, "pid": 2},
        _step(45.0, 3, 40, 1 * _GIB, spill=200, peak_disk=4 * _GIB),
        _step(55.0, 4, 0, 0),
        {"seconds": 56.0, "tours": 0, "peaks": {}, "work": {"transitions_per_step": [90_000_000, 5_000_000]}},
    ]
    return [json.dumps(record) for record in records]


def test_each_step_is_timed_within_its_segment_and_the_disk_from_the_restart():
    steps = long_total_table.read_steps(_log())
    assert [step["step"] for step in steps] == [1, 2, 3, 4]
    assert [step["seconds"] for step in steps] == [50.0, 10.0, 45.0, 10.0]
    assert [step["after_start"] for step in steps] == [True, False, True, False]
    # step 3 began with step 2's 2 GiB on disk: its own 4 GiB peak on top
    assert [step["disk_bytes"] for step in steps] == [0, 3 * _GIB, 6 * _GIB, 2 * _GIB]
    assert steps[1]["ram_peak_bytes"] == 5 * _GIB and steps[0]["ram_peak_bytes"] == 1 << 30


def test_the_table_has_a_row_a_step_and_marks_the_steps_after_a_start():
    text = long_total_table.table(long_total_table.read_steps(_log()), first_step=2)
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [row.split(" | ")[0] for row in rows] == ["| 2", "| 3", "| 4"]
    assert "| 3 | 40 | 45.0 * | 1125000.00 | 5.00 | 1.0 | 6.0 | 2.0 |" in text
    # the finished run's transitions are its last segment's: none for step 2
    assert "| 2 | 20 | 10.0 | 500000.00 | 5.00 | 5.0 | 3.0 |  |" in text
    assert "| 4 | 0 | 10.0 |  | in memory | 1.0 | 2.0 | 0.5 |" in text
    assert text.endswith(long_total_table.RESUMED)


def test_the_command_prints_the_table(tmp_path, capsys):
    log = tmp_path / "run.log"
    log.write_text("\n".join(_log()) + "\n")
    assert long_total_table.main([str(log), "--from", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(long_total_table.HEADER) and "| 3 | 40 |" in out and "| 2 | 20 |" not in out


def test_a_log_without_its_start_line_counts_its_first_step_from_zero():
    steps = long_total_table.read_steps(_log()[1:3])
    assert [step["seconds"] for step in steps] == [50.0, 10.0] and steps[0]["after_start"]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=4),
    max_leaves=12,
)


_GONE = object()


def _damaged(line, key, value):
    """A record of the log with ``key`` set to ``value`` (its peaks' too), or gone."""
    record = json.loads(line)
    for fields in (record, record.get("step_peaks") or {}):
        if value is _GONE:
            fields.pop(key, None)
        else:
            fields[key] = value
    return json.dumps(record)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_log()),
            st.builds(_damaged, st.sampled_from(_log()), st.sampled_from(_KEYS), _JSON | st.just(_GONE)),
            st.builds(json.dumps, _JSON),
            st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=20),
        ),
        max_size=8,
    )
)
def test_any_log_is_a_table_or_one_line_naming_the_line(tmp_path, capsys, lines):
    """A log of long_total's records, other JSON, or text cut anywhere (a
    run killed mid-write): the table, or exit status 2 and one line."""
    log = tmp_path / "any.log"
    log.write_text("".join(line + "\n" for line in lines))
    status = long_total_table.main([str(log)])
    err = capsys.readouterr().err
    assert status in (0, exit_status.EXIT_USAGE)
    if status:
        assert err.count("\n") == 1 and "line " in err and "of the log" in err
    else:
        assert err == ""


def test_a_missing_log_is_one_line_naming_it(tmp_path, capsys):
    missing = tmp_path / "no.log"
    assert long_total_table.main([str(missing)]) == exit_status.EXIT_IO
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(missing) in err
