"""bench.by_hand.dp_cluster_overhead's command line: a board it cannot
read ends in one line, before any cluster starts."""

import pytest

from bench.by_hand import dp_cluster_overhead
from knight.harness_api import exit_status


def test_boards_are_open_unless_they_end_in_c():
    assert dp_cluster_overhead._boards(["6x6", "5x8c"]) == [(6, 6, False), (5, 8, True)]


@pytest.mark.parametrize("board", ["6x6x", "6xc", "c", "6x6,6x8", "0x4"])
def test_a_board_it_cannot_read_is_one_line(capsys, board):
    assert dp_cluster_overhead.main([board]) == exit_status.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bench: error:")
