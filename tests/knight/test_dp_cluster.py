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
from knight.counting.dp import dp_cluster
from knight.counting.dp.cell_order import schedule
from knight.counting.dp.dp_run import count_hamiltonian
from knight.errors import InvalidArgument

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster) as connected:
        yield connected


def test_per_start_grid_equals_the_single_process_one(cluster):
    remote = count_tours(5, 6, method="dp", scheduler=cluster.scheduler_address)
    local = count_tours(5, 6, method="dp")
    assert (remote.tours == local.tours).all() and remote.method == "dp"
    assert remote.states_peak == local.states_peak and remote.transitions == local.transitions


def test_open_total_on_the_cluster(cluster):
    assert count_total(6, 6, scheduler=cluster.scheduler_address) == count_total(6, 6) == 6_637_920


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
        (4, 5, False, 7, 8),
        (5, 5, False, 12, 2),
        (6, 5, True, None, 1),
        (6, 5, True, None, 3),
        (6, 5, True, None, 8),
    ],
)
def test_any_number_of_parts_gives_the_single_process_count(client, parts, rows, cols, closed, forced):
    plan = schedule(rows, cols)
    run = dp_cluster.ClusterRun(client, parts=parts)
    found, work = run(plan, closed, forced)
    local, local_work = count_hamiltonian(plan, closed, forced)
    assert found == local
    assert work.held == local_work.held and work.transitions == local_work.transitions
    assert len(run.steps) == len(plan.order) and set(run.steps[0]["busy"]) <= set(dp_cluster.cluster_workers(client))


@pytest.mark.slow
def test_open_7x7_total_on_the_cluster(cluster):
    # minutes: the single-process run took 212 s (docs/counting-dp.md), and
    # gave the published 165,575,218,320 = 2 x 82,787,609,160
    assert count_total(7, 7, scheduler=cluster.scheduler_address) == 165_575_218_320


def test_counts_past_one_limb_widen_on_the_cluster(client):
    # 3 x 40 open has about 1.8e20 paths: past 2^64, so the steps rerun
    # with two limbs somewhere on the way
    plan = schedule(3, 40)
    found, _ = dp_cluster.ClusterRun(client, parts=1)(plan, False)
    assert found == count_hamiltonian(plan, False)[0] > 2**64


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
    limit = min(info["memory_limit"] for info in dp_cluster.cluster_workers(client).values())
    with pytest.raises(InvalidArgument, match=r"board 8x9 needs about .* GiB a worker .* memory limit") as refused:
        dp_cluster.check_cluster_fits(client, 8, 9, False, 2)
    assert "\n" not in str(refused.value) and limit > 0
    dp_cluster.check_cluster_fits(client, 6, 6, False, 2)  # fits: no error


def test_resume_is_refused_on_a_cluster(cluster, tmp_path):
    with pytest.raises(InvalidArgument, match="no checkpoint"):
        count_tours(5, 5, method="dp", scheduler=cluster.scheduler_address, resume=str(tmp_path / "c"))


def test_lost_work_reruns_the_step_then_fails_in_one_line(client, monkeypatch):
    gather, losses = client.gather, []

    def losing(futures, *args, **kwargs):
        if len(losses) < lose:
            losses.append(1)
            raise distributed.KilledWorker("a-task", "tcp://127.0.0.1:1", 3)
        return gather(futures, *args, **kwargs)

    monkeypatch.setattr(client, "gather", losing)
    plan = schedule(3, 4)
    lose = 2  # under STEP_ATTEMPTS: the step runs again and the count is right
    run = dp_cluster.ClusterRun(client, parts=2)
    assert run(plan, False)[0] == count_hamiltonian(plan, False)[0] and run.reruns == 2
    losses.clear()
    lose = dp_cluster.STEP_ATTEMPTS
    with pytest.raises(dp_cluster.ClusterLost) as lost:
        dp_cluster.ClusterRun(client, parts=2)(plan, False)
    assert "\n" not in exit_status.describe_os_error(lost.value) and "lost step 0" in str(lost.value)


def test_a_worker_killed_mid_count_changes_nothing(client):
    """Last in the module: it leaves the cluster with a restarted worker."""
    plan = schedule(6, 6)
    killed = []

    def kill_one(step):
        if step == 12 and not killed:
            pid = sorted(client.run(os.getpid).values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    run = dp_cluster.ClusterRun(client, parts=2, on_step=kill_one)
    try:
        found, _ = run(plan, False)
    except dp_cluster.ClusterLost as error:  # the one other outcome allowed: one line, no count
        assert "\n" not in str(error)
    else:
        assert found == count_hamiltonian(plan, False)[0] == 6_637_920 // 2
    assert killed
    client.wait_for_workers(2, timeout=60)
