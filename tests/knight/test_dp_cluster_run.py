"""The frontier DP on a real Dask cluster (two worker processes on
loopback): the same counts as the single-process engine, whatever the
number of partitions, through a worker killed mid-count, and boards the
workers' memory cannot hold refused before the run."""

import io
import json
import os
import signal

import pytest

from knight import cli, count_total, count_tours, exit_status
from knight.counting.cluster import cluster_faults
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.runs import cluster_run, run_loop
from knight.counting.dp.runs.run_loop import count_hamiltonian
from knight.errors import InvalidArgument

distributed = pytest.importorskip("distributed")


# per-start runs on the cluster are met whole in make test by the 3x4 grids
# (test_dp_cluster_checkpoint's resumed and whole counts, the command
# line's below); their symmetry classes are the engine's, alike for both
# executors (test_dp_counts on 5x5). This square board is make test-all's.
@pytest.mark.slow
def test_per_start_grid_equals_the_single_process_one(cluster):
    # 5x5: the square board's eight symmetries, 6 runs of 25 steps
    remote = count_tours(5, 5, method="dp", scheduler=cluster.scheduler_address)
    local = count_tours(5, 5, method="dp")
    assert (remote.tours == local.tours).all() and remote.method == "dp"
    assert remote.states_peak == local.states_peak and remote.transitions == local.transitions


# the cluster's totals, open and closed, are met by the runs of any number
# of parts below and by the command line's closed 5x6 total: these two
# larger boards are make test-all's
@pytest.mark.slow
def test_open_total_on_the_cluster(cluster):
    assert count_total(6, 6, scheduler=cluster.scheduler_address).tours == count_total(6, 6).tours == 6_637_920


@pytest.mark.slow
def test_closed_6x8_equals_the_single_process_count(cluster):
    remote = count_tours(6, 8, closed=True, method="dp", scheduler=cluster.scheduler_address)
    local = count_tours(6, 8, closed=True, method="dp")
    assert remote.total_tours == local.total_tours > 0


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "forced", "parts"),
    [
        (1, 2, False, None, 2),
        (3, 4, False, None, 1),
        (3, 4, False, 0, 3),
        (4, 5, False, 7, 4),
        (5, 5, False, 12, 2),
        (6, 5, True, None, 3),
        # closed in one part: one part is 3 x 4's above, closed 3 parts' here
        pytest.param(6, 5, True, None, 1, marks=pytest.mark.slow),
        # eight parts: a step is 8 x 8 + 3 x 8 = 88 tasks (each source's
        # piece for each part, then the merges and their summaries), 28 with
        # four; more parts than workers, and a forced start among them, are
        # met above (4 x 5 in 4, 3 x 4 in 3), so eight are make test-all's
        pytest.param(4, 5, False, 7, 8, marks=pytest.mark.slow),
        pytest.param(6, 5, True, None, 8, marks=pytest.mark.slow),
    ],
)
def test_any_number_of_parts_gives_the_single_process_count(client, parts, rows, cols, closed, forced):
    plan = schedule(rows, cols)
    run = cluster_run.ClusterRun(client, parts=parts)
    found, work = run(plan, closed, forced)
    local, local_work = count_hamiltonian(plan, closed, forced)
    assert found == local
    assert work.held == local_work.held and work.transitions == local_work.transitions
    assert len(run.steps) == len(plan.order) and set(run.steps[0]["busy"]) <= set(cluster_run.cluster_workers(client))


@pytest.mark.slow
def test_open_7x7_total_on_the_cluster(cluster):
    # minutes: the single-process run took 212 s (docs/counting-dp.md), and
    # gave the published 165,575,218,320 = 2 x 82,787,609,160
    assert count_total(7, 7, scheduler=cluster.scheduler_address).tours == 165_575_218_320


def test_counts_past_one_limb_widen_on_the_cluster(client, monkeypatch):
    # 3 x 40 open has about 1.8e20 paths: past 2^64, so the steps rerun
    # with two limbs somewhere on the way: by the one run loop, whichever
    # executor takes the steps
    widened, loop = [], run_loop.run_steps

    def watched(executor, *args, **kwargs):
        widen = executor.widen
        executor.widen = lambda limbs: widened.append((type(executor).__name__, limbs)) or widen(limbs)
        return loop(executor, *args, **kwargs)

    monkeypatch.setattr(run_loop, "run_steps", watched)
    plan = schedule(3, 40)
    found, _ = cluster_run.ClusterRun(client, parts=1)(plan, False)
    assert found == count_hamiltonian(plan, False)[0] > 2**64
    assert widened == [("ClusterSteps", 2), ("ProcessSteps", 2)]


def test_cli_counts_on_the_cluster(cluster):
    out = io.StringIO()
    assert (
        cli.main(["count", "3", "4", "--method", "dp", "--scheduler", cluster.scheduler_address, "--json"], out=out)
        == 0
    )
    assert json.loads(out.getvalue())["grid"] == count_tours(3, 4).tours.tolist()
    out = io.StringIO()
    assert (
        cli.main(
            ["count", "5", "6", "--total", "--closed", "--scheduler", cluster.scheduler_address, "--json"], out=out
        )
        == 0
    )
    assert json.loads(out.getvalue())["tours"] == 30 * 2 * 8


def test_a_board_past_the_workers_memory_is_refused_before_the_run(client):
    limit = min(info["memory_limit"] for info in cluster_run.cluster_workers(client).values())
    with pytest.raises(InvalidArgument, match=r"board 8x9 needs about .* GiB a worker .* memory limit") as refused:
        cluster_run.check_cluster_fits(client, 8, 9, False, 2)
    assert "\n" not in str(refused.value) and limit > 0
    cluster_run.check_cluster_fits(client, 6, 6, False, 2)  # fits: no error


def test_lost_work_reruns_the_step_then_fails_in_one_line(client, monkeypatch):
    # the coroutine behind Client.gather, which the count's bounded gather runs (cluster_faults.Watch)
    gather, losses = client._gather, []

    async def losing(futures, *args, **kwargs):
        if len(losses) < lose:
            losses.append(1)
            raise distributed.KilledWorker("a-task", "tcp://127.0.0.1:1", 3)
        return await gather(futures, *args, **kwargs)

    monkeypatch.setattr(client, "_gather", losing)
    plan = schedule(3, 4)
    lose = 2  # under STEP_ATTEMPTS: the step runs again and the count is right
    run = cluster_run.ClusterRun(client, parts=2)
    assert run(plan, False)[0] == count_hamiltonian(plan, False)[0] and run.reruns == 2
    losses.clear()
    lose = cluster_run.STEP_ATTEMPTS
    with pytest.raises(cluster_faults.ClusterLost) as lost:
        cluster_run.ClusterRun(client, parts=2)(plan, False)
    assert "\n" not in exit_status.describe_os_error(lost.value) and "lost step 0" in str(lost.value)


# slow (make test-all): a real worker process killed and restarted costs
# the run a worker's start and its kernels' load; make test covers the same
# ground in two faster halves: lost steps rerun to the same count (above),
# and a worker killed at a random moment ends in the count or one line
# (test_cluster_faults.py)
@pytest.mark.slow
def test_a_worker_killed_mid_count_changes_nothing(client):
    """Last in the module: it leaves the cluster with a restarted worker."""
    plan = schedule(5, 5)
    killed = []

    def kill_one(step):
        if step == 12 and not killed:
            pid = sorted(client.run(os.getpid).values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    run = cluster_run.ClusterRun(client, parts=2, on_step=kill_one)
    try:
        found, _ = run(plan, False)
    except cluster_faults.ClusterLost as error:  # the one other outcome allowed: one line, no count
        assert "\n" not in str(error)
    else:
        # 1,728 directed open tours of 5 x 5 (OEIS A165134)
        assert found == count_hamiltonian(plan, False)[0] == 1728 // 2
    assert killed
    client.wait_for_workers(2, timeout=60)


def test_the_progress_of_a_count_on_a_cluster_gives_each_workers_rate(cluster, client):
    told = []
    count_total(5, 5, progress=told.append, scheduler=cluster.scheduler_address)
    seen = [(now.done, now.held, now.rates) for now in told]
    assert [done for done, _, _ in seen] == list(range(1, 26))
    assert all(set(rates) <= set(cluster_run.cluster_workers(client)) for _, _, rates in seen)
    assert max(max(rates.values()) for _, _, rates in seen) > 0
    busiest = max(seen, key=lambda item: item[1])
    line = cli.progress_text(busiest[1], 120, busiest[2])
    assert "\n" not in line and f"{busiest[1]:,} states" in line and "transitions/s" in line
