"""The road of a DP total from the command line to its step kernel stays short.

The test records the Python stack at the first call into the partitioned
step's kernel of ``knight count 6 6 --total`` and holds the number of road
functions on it. A road function is a named function or method of knight
between ``knight.cli.main`` and the kernel, the kernel included. Closures,
comprehensions and the worker threads' ``map_all`` are not counted: they
are the body of the road function that defines them, handed to a thread
(on two cores the kernel runs on a pool thread, whose stack starts there).
"""

import inspect
import io

from knight import cli
from knight.counting.dp.steps import partition_kernels
from knight.runtime import machine

# the most road functions from knight.cli.main to the step kernel
MOST_ROAD_FUNCTIONS = 10


def _stack_at_the_kernel(monkeypatch):
    """Return the frames from ``knight.cli.main`` to the first call of the kernel, outermost first."""
    # one thread: the kernel is then called on the command's own stack
    monkeypatch.setattr(machine, "usable_cores", lambda: 1)
    real, stacks = partition_kernels.emit_successors, []

    def kernel(*arguments):
        if not stacks:
            stacks.append([(frame.frame.f_code, frame.filename) for frame in inspect.stack()])
        return real(*arguments)

    monkeypatch.setattr(partition_kernels, "emit_successors", kernel)
    assert cli.main(["count", "6", "6", "--total"], out=io.StringIO()) == 0
    frames = stacks[0]
    names = [code.co_qualname for code, _ in frames]
    return list(reversed(frames[: names.index("main") + 1]))


def _is_road(code, filename):
    """Return whether a frame is a road function of knight's, as the module docstring says."""
    plumbing = "<" in code.co_name or "<locals>" in code.co_qualname or code.co_name == "map_all"
    return "/knight/" in filename and not plumbing


def test_a_dp_total_reaches_its_kernel_within_ten_road_functions(monkeypatch):
    frames = _stack_at_the_kernel(monkeypatch)
    road = [code for code, filename in frames if _is_road(code, filename)]
    names = [code.co_qualname for code in road]
    assert names[0] == "main" and names[-1] == "partition_tables"
    # the count can fail: every road function is counted once, the loop and the step among them
    assert len(road) == len(set(road)) and {"run_steps", "ProcessSteps.run_step"} <= set(names)
    # the kernel itself is the road's last function
    assert len(road) + 1 <= MOST_ROAD_FUNCTIONS, " -> ".join(names)
