"""A count's progress line (knight/cli/progress_bar.py)."""

import pytest

from knight import cli


@pytest.mark.parametrize("workers", [0, 1, 2, 64])
def test_the_dp_progress_line_is_one_line_at_any_number_of_workers(workers):
    rates = {f"tcp://10.0.0.{n}:40000": 1.5e6 + 1e4 * n for n in range(workers)}
    line = cli.progress_text(1_234_567, 2_048, rates or None)
    assert "\n" not in line and line.startswith("1,234,567 states, peak memory 2,048 MiB")
    if workers == 1:
        assert line.endswith(", 1 worker at 1.5M transitions/s")
    elif workers:
        assert f"{workers} workers at 1.5M-" in line and len(line) < 80
    else:
        assert "worker" not in line
