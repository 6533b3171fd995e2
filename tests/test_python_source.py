"""The house-rule tests' parser: a finalizer that parses, run by the cyclic
collector, cannot break a parse in progress."""

import ast
import gc
from pathlib import Path

import pytest

from tests import python_source


class _ParsesWhenCollected:
    """Stands for an asyncio task whose unretrieved exception is logged, its
    traceback's carets placed by a parse, when the collector frees it."""

    def __init__(self):
        self.itself = self

    def __del__(self):
        ast.parse("total = (1 + 2) * 3")


@pytest.fixture
def eager_collector():
    """A collection every few allocations, so one falls inside each parse."""
    threshold = gc.get_threshold()
    gc.set_threshold(20)
    yield
    gc.set_threshold(*threshold)
    gc.collect()


def test_a_file_parses_whole_with_a_parsing_finalizer_waiting(eager_collector):
    path = Path(python_source.__file__)
    for _ in range(20):
        _ParsesWhenCollected()
        tree = python_source.parse_file(path)
        assert ast.dump(tree) == ast.dump(ast.parse(path.read_text()))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was_found(enabled):
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        python_source.parse("x = 1")
        assert gc.isenabled() is enabled
        with pytest.raises(SyntaxError):
            python_source.parse("x = (")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
