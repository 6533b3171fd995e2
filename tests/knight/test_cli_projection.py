"""The line before a long count (knight/cli/projection.py)."""

from cli_run import run

from knight.cli import projection


def test_long_counts_print_a_projection_first(monkeypatch, capsys):
    # 7x7 and up take long; shrink the threshold to see it on 3x4
    monkeypatch.setattr(projection, "PROJECT_COUNTS_ABOVE", 0)
    assert run("count", "3", "4")[0] == 0
    err = capsys.readouterr().err
    assert err.startswith("knight: about ") and "Knuth's estimate" in err


def test_the_dp_projection_reads_its_room_from_the_driver(monkeypatch, capsys):
    """The room the line names is the driver's ``memory_room``: the memory
    this process may take within --memory, clipped in that one place."""
    from knight.counting import driver

    asked = []
    monkeypatch.setattr(projection, "PROJECT_DP_STATES_FROM", 0)
    monkeypatch.setattr(driver, "memory_room", lambda memory=None: asked.append(memory) or 2**40)
    assert run("count", "4", "5", "--total", "--memory", "300M")[0] == 0
    err = capsys.readouterr().err
    assert asked[-1] == 300 << 20 and "(in memory)" in err and err.count("\n") == 1
