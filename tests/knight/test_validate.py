"""Argument checks: ranges named in one-line messages, whatever the value."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knight import validate
from knight.errors import InvalidArgument


@pytest.mark.parametrize("value", [2**63, 2**100, -(2**70), 0])
def test_budgets_must_fit_the_kernels_int64(value):
    with pytest.raises(InvalidArgument, match=r"budget must be in 1\.\.9223372036854775807"):
        validate.budget(value, None)
    assert validate.budget(2**63 - 1, None) == 2**63 - 1


def test_seeds_are_what_numpy_takes():
    assert validate.seed(2**32 - 1) == 2**32 - 1
    for value in (-1, 2**32, 10**30):
        with pytest.raises(InvalidArgument, match=r"seed must be in 0\.\.4294967295"):
            validate.seed(value)


@pytest.mark.parametrize("value", [1.0, "3", None, True, np.float64(2), [1]])
def test_non_integers_are_refused(value):
    with pytest.raises(InvalidArgument, match="must be an integer"):
        validate.integer(value, "depth", minimum=0)


def test_numpy_integers_are_integers():
    assert validate.integer(np.int64(5), "rows", minimum=1) == 5


def test_long_values_are_cut_short_in_messages():
    with pytest.raises(InvalidArgument) as error:
        validate.integer_text("9" * 100_000, "budget", maximum=validate.MAX_INT64)
    assert len(str(error.value)) < 200


def test_messages_are_one_line_whatever_they_quote():
    assert validate.one_line("a\nb\x00c é") == "a\\nb\\x00c é"


@pytest.mark.parametrize("value", [True, False, 1, 0, np.bool_(True)])
def test_flags(value):
    assert validate.flag(value, "closed") is bool(value)


@pytest.mark.parametrize("value", ["yes", 2, None, np.array([1, 0]), 0.5])
def test_non_flags_are_refused(value):
    with pytest.raises(InvalidArgument, match="closed must be True or False"):
        validate.flag(value, "closed")


@pytest.mark.parametrize("value", [["greedy"], None, np.array(["a", "b"]), 3])
def test_choices_must_be_one_of_the_names(value):
    with pytest.raises(InvalidArgument, match="unknown method"):
        validate.choice(value, "method", validate.METHODS)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("8GiB", 8 << 30),
        ("8G", 8 << 30),
        ("8 gib", 8 << 30),
        ("16GB", 16 * 10**9),
        ("500M", 500 << 20),
        ("1.5G", 3 << 29),
        ("268435456", 1 << 28),
        ("2T", 2 << 40),
        ("300mb", 300 * 10**6),
        # issue 29, item 8: the documented maximum itself, and leading zeros
        (str(validate.MAX_MEMORY), validate.MAX_MEMORY),
        ("1048576T", validate.MAX_MEMORY),
        ("0" * 40 + "256M", 256 << 20),
        ("0" * 40 + "0.25GiB", 1 << 28),
    ],
)
def test_memory_sizes_in_binary_and_decimal_units(text, size):
    assert validate.memory_text(text) == size


@given(st.integers(0, 2**70), st.sampled_from(["", "K", "M", "G", "T", "KB", "GB"]), st.integers(0, 50))
def test_a_whole_size_is_read_exactly_at_any_leading_zeros(number, unit, zeros):
    """No float between the digits and the bytes: one byte past the
    maximum is refused, the maximum taken, however the number is padded."""
    base = 1000 if unit.endswith("B") else 1024
    size = number * base ** ("KMGT".index(unit[0]) + 1 if unit else 0)
    text = "0" * zeros + str(number) + unit
    if validate.MIN_MEMORY <= size <= validate.MAX_MEMORY:
        assert validate.memory_text(text) == size
    else:
        with pytest.raises(InvalidArgument, match="--memory must be"):
            validate.memory_text(text)


@given(st.text(max_size=30))
def test_any_memory_text_is_a_size_or_one_line(text):
    """Whatever is typed: a size within the bounds, or a one-line refusal
    naming --memory."""
    try:
        size = validate.memory_text(text)
    except InvalidArgument as error:
        assert str(error).startswith("--memory must be") and "\n" not in str(error)
    else:
        assert validate.MIN_MEMORY <= size <= validate.MAX_MEMORY


@given(st.integers())
def test_a_memory_budget_is_an_integer_in_range(value):
    if validate.MIN_MEMORY <= value <= validate.MAX_MEMORY:
        assert validate.memory(value) == value
    else:
        with pytest.raises(InvalidArgument, match="memory must be 256 MiB to"):
            validate.memory(value)
