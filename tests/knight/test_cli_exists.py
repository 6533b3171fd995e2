"""`knight exists` (knight/cli/exists.py): the theorems' answer."""

from cli_run import run, run_json


def test_exists():
    assert run_json("exists", "3", "4")["exists"] is True
    assert run_json("exists", "3", "4", "--closed")["exists"] is False
    status, text = run("exists", "5", "5")
    assert status == 0 and text.startswith("yes") and "parity" in text
