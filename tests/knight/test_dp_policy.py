"""The DP's step policy (``knight.counting.dp.planning.policy``): the one place its
step settings live. No module of the DP keeps a global for a setting the
policy owns, a policy passed in is the one every step follows, and a
table the DP does not have is refused."""

import importlib
import pkgutil
from dataclasses import fields

import pytest

import knight.counting.dp
from knight import InvalidArgument
from knight.counting.dp.model import cell_order
from knight.counting.dp.planning.policy import TABLES, StepPolicy
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps import step_choice

# the module globals the policy's fields replaced, as they were once named
_FORMER_GLOBALS = {"TABLE", "PARTITIONED_STATES", "MIN_ROOM"}


def _dp_modules():
    package = knight.counting.dp
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        yield importlib.import_module(info.name)


def test_no_module_of_the_dp_holds_a_setting_the_policy_owns():
    owned = {field.name.upper() for field in fields(StepPolicy)} | _FORMER_GLOBALS
    for module in _dp_modules():
        held = owned & set(vars(module))
        assert not held, f"{module.__name__} holds {sorted(held)}: a setting of StepPolicy's"


@pytest.mark.parametrize("table", ["hash", "partitioned"])
def test_every_step_takes_the_table_the_policy_names(table):
    count, work = run_loop.count_hamiltonian(cell_order.schedule(4, 5), False, policy=StepPolicy(table=table))
    assert count == 82 and set(work.engines) == {table} and work.out_of_core_steps == 0


def test_auto_takes_the_partitioned_step_from_the_policy_s_threshold():
    plan = cell_order.schedule(4, 5)
    _, hashed = run_loop.count_hamiltonian(plan, False)
    _, partitioned = run_loop.count_hamiltonian(plan, False, policy=StepPolicy(partitioned_states=0))
    assert set(hashed.engines) == {step_choice.HASH} and set(partitioned.engines) == {step_choice.PARTITIONED}


def test_a_policy_of_little_room_sends_the_large_steps_out_of_core():
    policy = StepPolicy(partitioned_states=0, min_room=4_000, memory=1)
    count, work = run_loop.count_hamiltonian(cell_order.schedule(4, 5), False, policy=policy)
    assert count == 82 and 0 < work.out_of_core_steps < len(work.held)


def test_a_table_the_dp_does_not_have_is_refused():
    assert StepPolicy().table in TABLES
    with pytest.raises(InvalidArgument, match="table must be one of auto, partitioned, hash"):
        StepPolicy(table="sorted")
