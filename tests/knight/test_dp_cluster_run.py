"""The frontier DP on a real Dask cluster (two worker processes on
loopback): the same counts as the single-process engine, whatever the
number of partitions, through a worker killed mid-count, and boards the
workers' memory cannot hold refused before the run."""

import hashlib
import io
import json
import os
import pathlib
import signal
import subprocess
import sys

import numpy as np
import pytest

from knight import cli, count_total, count_tours, exit_status
from knight.counting.cluster import cluster_faults
from knight.counting.dp import cluster_run, run_loop
from knight.counting.dp.checkpoints import checkpoint_header, cluster_checkpoint
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.run_loop import count_hamiltonian
from knight.errors import InvalidArgument

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster) as connected:
        yield connected


def test_per_start_grid_equals_the_single_process_one(cluster):
    # 5x5: the square board's eight symmetries, 6 runs of 25 steps
    remote = count_tours(5, 5, method="dp", scheduler=cluster.scheduler_address)
    local = count_tours(5, 5, method="dp")
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
        # eight parts of a closed run: a third of the module's time, and
        # eight parts are met above (4 x 5) and closed runs in 1 and 3
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
    assert count_total(7, 7, scheduler=cluster.scheduler_address) == 165_575_218_320


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


class _Stop(Exception):
    pass


def _stopped_at(done_steps):
    def progress(done, total, held):
        if done == done_steps:
            raise _Stop

    return progress


@pytest.fixture
def every_step(monkeypatch):
    # a checkpoint after every step (at most one a minute otherwise)
    monkeypatch.setattr(checkpoint_header, "CHECKPOINT_SECONDS", 0.0)


@pytest.fixture(scope="module")
def local_4x5():
    # 4x5, not a larger board: 6 runs of 20 steps, which is every case a
    # resume meets (a finished run, a run cut mid-way, runs not begun) at
    # a fifth of 5x6's cluster round trips
    return count_tours(4, 5, method="dp").tours


def _stopped_count(cluster, path, done_steps):
    """A 4x5 per-start count stopped after ``done_steps`` steps in all (the
    checkpoint saved then): the names in the partition folder it left."""
    with pytest.raises(_Stop):
        count_tours(
            4, 5, method="dp", scheduler=cluster.scheduler_address, resume=path, progress=_stopped_at(done_steps)
        )
    return os.listdir(path + cluster_checkpoint.PARTS_SUFFIX)


def test_a_count_stopped_after_a_step_resumes_to_the_same_count(cluster, tmp_path, every_step, local_4x5):
    path = str(tmp_path / "count.ckpt")
    # 20 steps a run: stopped in the second run, the first one finished
    parts = _stopped_count(cluster, path, 35)
    header = json.loads(pathlib.Path(path).read_text())
    assert len(header["finished"]) == 1 and header["current"][1] == 15
    assert sorted(part["file"] for part in header["parts"]) == sorted(set(parts) - {cluster_checkpoint.PARTS_MARK})
    resumed = count_tours(4, 5, method="dp", scheduler=cluster.scheduler_address, resume=path)
    assert (resumed.tours == local_4x5).all()
    # the count done, the partition folder goes; the checkpoint records every run
    assert os.listdir(tmp_path) == ["count.ckpt"]
    assert json.loads(pathlib.Path(path).read_text())["current"] is None
    again = count_tours(4, 5, method="dp", scheduler=cluster.scheduler_address, resume=path)
    assert (again.tours == local_4x5).all() and again.transitions == 0


# a second cluster's start: the split a resume meets on any number of
# workers is test_a_resumed_table_split_in_any_number_of_parts_counts_the_same's
@pytest.mark.slow
def test_a_count_resumes_on_a_cluster_of_another_size(cluster, tmp_path, every_step, local_4x5):
    path = str(tmp_path / "count.ckpt")
    _stopped_count(cluster, path, 15)  # two partitions, one a worker
    # a dashboard on any free port: the module's cluster may hold the default one
    with distributed.LocalCluster(
        n_workers=1, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as smaller:
        resumed = count_tours(4, 5, method="dp", scheduler=smaller.scheduler_address, resume=path)
    assert (resumed.tours == local_4x5).all()


def test_a_resumed_table_split_in_any_number_of_parts_counts_the_same(client, tmp_path):
    plan = schedule(6, 5)
    store = cluster_checkpoint.ClusterCheckpoint.open(str(tmp_path / "c"), 6, 5, True, range(30), every=0)

    def stop(step):
        if step == 14:
            raise _Stop

    with pytest.raises(_Stop):
        cluster_run.ClusterRun(client, parts=3, on_step=stop)(plan, True, None, None, None, store.saver(-1))
    saved = store.resume_state(-1)
    assert saved.step == 14 and len(saved.parts) == 3
    for parts in (1, 2, 5):
        found, work = cluster_run.ClusterRun(client, parts=parts)(plan, True, None, None, saved)
        assert found == count_hamiltonian(plan, True)[0] and len(work.held) == len(plan.order) - 14


@pytest.mark.parametrize("damage", ["flip", "remove", "bad key"])
def test_a_damaged_partition_file_is_refused_in_one_line_and_nothing_deleted(cluster, tmp_path, every_step, damage):
    path = str(tmp_path / "count.ckpt")
    _stopped_count(cluster, path, 30)
    folder = pathlib.Path(path + cluster_checkpoint.PARTS_SUFFIX)
    header = json.loads(pathlib.Path(path).read_text())
    victim = folder / header["parts"][0]["file"]
    if damage == "flip":
        data = bytearray(victim.read_bytes())
        data[-40] ^= 1
        victim.write_bytes(bytes(data))
    elif damage == "remove":
        victim.unlink()
    else:
        # a key no step makes, the file's checksum and the checkpoint's made
        # to match: the workers' check of the keys refuses it
        with np.load(victim) as arrays:
            keys, counts = arrays["keys"].copy(), arrays["counts"]
        keys[0] = np.uint64(2**64 - 1)
        buffer = io.BytesIO()
        np.savez(buffer, keys=keys, counts=counts)
        victim.write_bytes(buffer.getvalue())
        header["parts"][0]["sha256"] = hashlib.sha256(buffer.getvalue()).hexdigest()
        no_table = np.zeros(0, dtype=np.uint64), np.zeros((0, 1), dtype=np.uint64)  # the header's checksum covers none
        header["checksum"] = checkpoint_header.checksum(header, *no_table)
        pathlib.Path(path).write_text(json.dumps(header))
    before = {item: item.read_bytes() for item in [pathlib.Path(path), *folder.iterdir()]}
    with pytest.raises(InvalidArgument) as refused:
        count_tours(4, 5, method="dp", scheduler=cluster.scheduler_address, resume=path)
    message = str(refused.value)
    assert "\n" not in message and str(victim) in message and "left untouched" in message
    assert {item: item.read_bytes() for item in [pathlib.Path(path), *folder.iterdir()]} == before


def test_a_folder_of_another_name_owner_is_refused_before_the_count(cluster, tmp_path):
    path = tmp_path / "count.ckpt"
    stranger = tmp_path / "count.ckpt.parts"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    with pytest.raises(InvalidArgument, match="not a partition folder of knight's"):
        count_tours(4, 5, method="dp", scheduler=cluster.scheduler_address, resume=str(path))
    assert os.listdir(stranger) == ["notes.txt"] and not path.exists()


def test_a_single_process_checkpoint_is_not_taken_for_a_cluster_one(cluster, tmp_path, every_step):
    path = tmp_path / "count.ckpt"
    count_tours(3, 4, method="dp", resume=str(path))
    data = path.read_bytes()
    with pytest.raises(InvalidArgument, match="is not a knight dp cluster checkpoint"):
        count_tours(3, 4, method="dp", scheduler=cluster.scheduler_address, resume=str(path))
    assert path.read_bytes() == data


def test_the_command_line_resumes_a_count_on_the_cluster(cluster, tmp_path, every_step, local_4x5):
    path = str(tmp_path / "count.ckpt")
    _stopped_count(cluster, path, 50)
    argv = ["count", "4", "5", "--method", "dp", "--scheduler", cluster.scheduler_address, "--resume", path]
    done = subprocess.run(
        [sys.executable, "-m", "knight", *argv, "--json"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["grid"] == local_4x5.tolist()
    assert os.listdir(tmp_path) == ["count.ckpt"]
    # a damaged checkpoint: exit status 2, one line
    pathlib.Path(path).write_text(pathlib.Path(path).read_text().replace('"finished": {', '"finished": {"3": 1, '))
    done = subprocess.run([sys.executable, "-m", "knight", *argv], capture_output=True, text=True, timeout=300)
    assert done.returncode == exit_status.EXIT_USAGE and done.stderr.count("\n") == 1
    assert "damaged or was edited" in done.stderr and "Traceback" not in done.stderr


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
    run = cluster_run.ClusterRun(client, parts=2)
    assert run(plan, False)[0] == count_hamiltonian(plan, False)[0] and run.reruns == 2
    losses.clear()
    lose = cluster_run.STEP_ATTEMPTS
    with pytest.raises(cluster_faults.ClusterLost) as lost:
        cluster_run.ClusterRun(client, parts=2)(plan, False)
    assert "\n" not in exit_status.describe_os_error(lost.value) and "lost step 0" in str(lost.value)


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


def test_a_progress_that_takes_rates_gets_each_workers(cluster, client):
    seen, plain = [], []
    address = cluster.scheduler_address
    count_total(
        5, 5, progress=lambda done, total, held, rates=None: seen.append((done, held, rates)), scheduler=address
    )
    count_total(5, 5, progress=lambda done, total, held: plain.append((done, held)), scheduler=address)
    assert [(done, held) for done, held, _ in seen] == plain and len(plain) == 25
    assert all(set(rates) <= set(cluster_run.cluster_workers(client)) for _, _, rates in seen)
    assert max(max(rates.values()) for _, _, rates in seen) > 0
    busiest = max(seen, key=lambda item: item[1])
    line = cli.progress_text(busiest[1], 120, busiest[2])
    assert "\n" not in line and f"{busiest[1]:,} states" in line and "transitions/s" in line
