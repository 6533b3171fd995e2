"""The DP's one run loop (knight.counting.dp.runs.run_loop.run_steps): widening
and the step's retry, resume, the hook after each step and progress are
the loop's, whatever executor takes the steps: a plain-Python one here,
the process's (``ProcessSteps``) through ``count_hamiltonian`` to the
published counts. The cluster's goes through the same loop in
test_dp_cluster_run.py."""

from types import SimpleNamespace

import pytest

from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs import run_loop

# 4 x 5: 164 directed open tours in all (test_published_counts), each
# undirected path two of them
PATHS_4X5 = 164 // 2


class Doubling:
    """A plain-Python executor: the table is one Python int, doubled each
    step, which passes its limbs at 2^(64 x limbs) as a count would; the
    last step finds the table as its tours. It knows nothing of widening
    but how to hold more limbs."""

    def __init__(self, steps):
        self.steps, self.held, self.bits = steps, None, 64
        self.calls = []

    def start(self, state):
        self.held = 1 if state is None else state[1]
        return (0, 0) if state is None else (state[0], state[2])

    def run_step(self, step, totals):
        self.calls.append(("step", step, totals.ratio))
        if 2 * self.held >> self.bits:
            return None
        self.held *= 2
        found = self.held if step == self.steps - 1 else 0
        return run_loop.StepDone(1, 2, 2, 0, found, "doubling", ("shown",))

    def limbs(self):
        return self.bits // 64

    def widen(self, limbs):
        self.calls.append(("widen", limbs))
        self.bits = 64 * limbs

    @property
    def table(self):
        return self.held

    def close(self):
        self.calls.append(("close",))


def _plan(steps):
    return SimpleNamespace(order=range(steps), rows=1, cols=steps)


def test_the_loop_widens_and_runs_the_overflowed_step_again():
    seen, shown = [], []
    executor = Doubling(70)
    found, work = run_loop.run_steps(
        executor,
        _plan(70),
        on_step=lambda step, table, completed: seen.append((step, table, completed)),
        progress=lambda step, steps, held, *extra, saved: shown.append((step, steps, held, extra, saved)),
    )
    # 2^64 passes one limb at step 63: widened to two, and step 63 again
    assert found == 2**70 and ("widen", 2) in executor.calls
    assert [call for call in executor.calls if call[0] != "step" or call[1] == 63][:3] == [
        ("step", 63, 2.0),
        ("widen", 2),
        ("step", 63, 2.0),
    ]
    assert executor.calls[-1] == ("close",) and len(work.held) == 70 and work.engines == ["doubling"] * 70
    # the hook after each step, the table as the executor holds it; then progress, its extras passed on
    assert seen == [(step, 2**step, 0 if step < 70 else 2**70) for step in range(1, 71)]
    assert shown[0] == (1, 70, 2, ("shown",), 0) and len(shown) == 70


def test_the_loop_refuses_a_count_past_its_widest_limbs_and_closes():
    executor = Doubling(70)
    with pytest.raises(OverflowError, match=r"1x70 passed 2\^64 - 1 at step 63"):
        run_loop.run_steps(executor, _plan(70), max_limbs=1)
    assert executor.calls[-1] == ("close",)


def test_the_loop_resumes_from_the_step_a_state_names():
    executor = Doubling(10)
    found, work = run_loop.run_steps(executor, _plan(10), state=(6, 2**6, 5))
    assert found == 5 + 2**10 and len(work.held) == 4
    assert [call[1] for call in executor.calls if call[0] == "step"] == [6, 7, 8, 9]


class Counted(run_loop.ProcessSteps):
    """The process's executor, its calls counted and one overflow feigned
    at ``feigned``: widening is the loop's, not the executor's."""

    def __init__(self, plan, closed, forced, feigned):
        super().__init__(plan, closed, forced, StepPolicy())
        self.feigned, self.widened, self.stepped = feigned, [], []

    def run_step(self, step, totals):
        self.stepped.append(step)
        if step == self.feigned and not self.widened:
            return None
        return super().run_step(step, totals)

    def widen(self, limbs):
        self.widened.append(limbs)
        super().widen(limbs)


def test_the_process_executor_through_the_loop_counts_the_published_paths():
    plan = schedule(4, 5)
    executor = Counted(plan, False, None, feigned=7)
    tables = []
    found, work = run_loop.run_steps(executor, plan, on_step=lambda step, table, done: tables.append((step, table)))
    assert found == PATHS_4X5 == run_loop.count_hamiltonian(plan, False)[0]
    # the feigned overflow: step 7 again, in two limbs, the same count
    assert executor.widened == [2] and executor.stepped.count(7) == 2 and len(work.held) == 20
    assert executor.limbs() == 2
    # resumed from the table after step 12, as the hook was given it
    step, (keys, counts) = tables[11]
    resumed, resumed_work = run_loop.count_hamiltonian(plan, False, state=(step, keys, counts, 0))
    assert (step, resumed, len(resumed_work.held)) == (12, PATHS_4X5, 8)
    assert resumed_work.held == work.held[12:]


def test_count_hamiltonian_is_the_loop_over_the_process_executor(monkeypatch):
    driven = []
    loop = run_loop.run_steps

    def counted(executor, *args, **kwargs):
        driven.append(type(executor).__name__)
        return loop(executor, *args, **kwargs)

    monkeypatch.setattr(run_loop, "run_steps", counted)
    saved = []
    found, _ = run_loop.count_hamiltonian(
        schedule(3, 4), False, on_step=lambda step, keys, counts, completed: saved.append((step, keys.shape[0]))
    )
    # 3 x 4: 16 directed open tours, 8 undirected paths (test_published_counts)
    assert found == 16 // 2 and driven == ["ProcessSteps"]
    assert [step for step, _ in saved] == list(range(1, 13))
