"""The frontier DP's checkpoints on a real Dask cluster (two worker
processes on loopback): a count stopped after a step resumes to the same
count, in-process and from the command line, its partitions split any way;
damaged, foreign or single-process files refused in one line, nothing
deleted."""

import hashlib
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

from knight import count_tours, exit_status
from knight.counting.dp.checkpoints import checkpoint_header, cluster_checkpoint
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.runs import cluster_run
from knight.counting.dp.runs.run_loop import count_hamiltonian
from knight.errors import InvalidArgument

distributed = pytest.importorskip("distributed")


class _Stop(Exception):
    pass


def _stopped_at(done_steps):
    def progress(now):
        if now.done == done_steps:
            raise _Stop

    return progress


@pytest.fixture
def every_step(monkeypatch):
    # a checkpoint after every step (at most one a minute otherwise)
    monkeypatch.setattr(checkpoint_header, "CHECKPOINT_SECONDS", 0.0)


# 3x4, not a larger board: 4 runs (a start square up to the board's
# symmetry) of 12 steps, which is every case a resume meets (a finished
# run, a run cut mid-way, runs not begun) at 2/5 of 4x5's cluster round
# trips, each a checkpoint
BOARD = (3, 4)
RUN_STEPS = 12


@pytest.fixture(scope="module")
def local_grid():
    return count_tours(*BOARD, method="dp").tours


def _stopped_count(cluster, path, done_steps):
    """A 3x4 per-start count stopped after ``done_steps`` steps in all (the
    checkpoint saved then): the names in the partition folder it left."""
    with pytest.raises(_Stop):
        count_tours(
            *BOARD, method="dp", scheduler=cluster.scheduler_address, resume=path, progress=_stopped_at(done_steps)
        )
    return os.listdir(path + cluster_checkpoint.PARTS_SUFFIX)


# stopped in the third run, two finished, the rest not begun
STOPPED_STEPS = 2 * RUN_STEPS + 6


@pytest.fixture(scope="module")
def stopped(cluster, tmp_path_factory):
    """One stopped count's checkpoint and partition folder, for the tests
    that resume or damage a copy of it (``_copy_of``): one cluster run of
    30 steps, not one a test."""
    folder = tmp_path_factory.mktemp("stopped")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checkpoint_header, "CHECKPOINT_SECONDS", 0.0)
        _stopped_count(cluster, str(folder / "count.ckpt"), STOPPED_STEPS)
    return folder


def _copy_of(stopped, tmp_path):
    """The stopped count's files, copied into ``tmp_path``: the path of
    the copied checkpoint (its partition folder beside it, as a user would
    move both)."""
    for item in stopped.iterdir():
        if item.is_dir():
            shutil.copytree(item, tmp_path / item.name)
        else:
            shutil.copy2(item, tmp_path)
    return str(tmp_path / "count.ckpt")


def test_a_count_stopped_after_a_step_resumes_to_the_same_count(cluster, tmp_path, every_step, local_grid, stopped):
    path = _copy_of(stopped, tmp_path)
    header = json.loads(pathlib.Path(path).read_text())
    parts = os.listdir(path + cluster_checkpoint.PARTS_SUFFIX)
    assert len(header["finished"]) == 2 and header["current"][1] == STOPPED_STEPS - 2 * RUN_STEPS
    assert sorted(part["file"] for part in header["parts"]) == sorted(set(parts) - {cluster_checkpoint.PARTS_MARK})
    resumed = count_tours(*BOARD, method="dp", scheduler=cluster.scheduler_address, resume=path)
    assert (resumed.tours == local_grid).all()
    # the count done, the partition folder goes; the checkpoint records every run
    assert os.listdir(tmp_path) == ["count.ckpt"]
    assert json.loads(pathlib.Path(path).read_text())["current"] is None
    again = count_tours(*BOARD, method="dp", scheduler=cluster.scheduler_address, resume=path)
    assert (again.tours == local_grid).all() and again.transitions == 0


# a second cluster's start: the split a resume meets on any number of
# workers is test_a_resumed_table_split_in_any_number_of_parts_counts_the_same's
@pytest.mark.slow
def test_a_count_resumes_on_a_cluster_of_another_size(cluster, tmp_path, every_step, local_grid):
    path = str(tmp_path / "count.ckpt")
    _stopped_count(cluster, path, 7)  # two partitions, one a worker
    # a dashboard on any free port: the session's cluster may hold the default one
    with distributed.LocalCluster(
        n_workers=1, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as smaller:
        resumed = count_tours(*BOARD, method="dp", scheduler=smaller.scheduler_address, resume=path)
    assert (resumed.tours == local_grid).all()


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
    for parts in (1, 5):  # fewer partitions than were saved, and more
        found, work = cluster_run.ClusterRun(client, parts=parts)(plan, True, None, None, saved)
        assert found == count_hamiltonian(plan, True)[0] and len(work.held) == len(plan.order) - 14


@pytest.mark.parametrize("damage", ["flip", "remove", "bad key"])
def test_a_damaged_partition_file_is_refused_in_one_line_and_nothing_deleted(cluster, tmp_path, stopped, damage):
    path = _copy_of(stopped, tmp_path)
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
        count_tours(*BOARD, method="dp", scheduler=cluster.scheduler_address, resume=path)
    message = str(refused.value)
    assert "\n" not in message and str(victim) in message and "left untouched" in message
    assert {item: item.read_bytes() for item in [pathlib.Path(path), *folder.iterdir()]} == before


def test_a_folder_of_another_name_owner_is_refused_before_the_count(cluster, tmp_path):
    path = tmp_path / "count.ckpt"
    stranger = tmp_path / "count.ckpt.parts"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    with pytest.raises(InvalidArgument, match="not a partition folder of knight's"):
        count_tours(*BOARD, method="dp", scheduler=cluster.scheduler_address, resume=str(path))
    assert os.listdir(stranger) == ["notes.txt"] and not path.exists()


def test_a_single_process_checkpoint_is_not_taken_for_a_cluster_one(cluster, tmp_path, every_step):
    path = tmp_path / "count.ckpt"
    count_tours(3, 4, method="dp", resume=str(path))
    data = path.read_bytes()
    with pytest.raises(InvalidArgument, match="is not a knight dp cluster checkpoint"):
        count_tours(3, 4, method="dp", scheduler=cluster.scheduler_address, resume=str(path))
    assert path.read_bytes() == data


def test_the_command_line_resumes_a_count_on_the_cluster(cluster, tmp_path, every_step, local_grid, stopped):
    path = _copy_of(stopped, tmp_path)
    argv = ["count", *map(str, BOARD), "--method", "dp", "--scheduler", cluster.scheduler_address, "--resume", path]
    done = subprocess.run(
        [sys.executable, "-m", "knight", *argv, "--json"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["grid"] == local_grid.tolist()
    assert os.listdir(tmp_path) == ["count.ckpt"]
    # a damaged checkpoint: exit status 2, one line
    pathlib.Path(path).write_text(pathlib.Path(path).read_text().replace('"finished": {', '"finished": {"3": 1, '))
    done = subprocess.run([sys.executable, "-m", "knight", *argv], capture_output=True, text=True, timeout=300)
    assert done.returncode == exit_status.EXIT_USAGE and done.stderr.count("\n") == 1
    assert "damaged or was edited" in done.stderr and "Traceback" not in done.stderr
