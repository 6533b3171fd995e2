"""Run a sweep into a run folder, or finish one that was interrupted.

Searches run one at a time in this process, so that no run disturbs
another's timing. Each finished run is appended to runs.csv at once; an
interrupt (Ctrl-C) loses at most the run in progress, and ``resume`` picks
up the rest from the same plan, which meta.json holds.
"""

import datetime
import os
from pathlib import Path

import knight
from bench.run_folder import environment, folders, record
from bench.sweep import plan
from bench.sweep.progress import Progress, expected_seconds
from bench.timing.repeats import compile_times, time_repeats
from knight import InvalidArgument


def now():
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def measure(run, repeats, search_impossible):
    """Search ``run`` ``repeats`` times (or rule it out by theory) and return
    its RunRecord. Node counts are exact; seconds are the kernel's own."""
    possible, reason = knight.start_possible(run.rows, run.cols, run.start, run.closed)
    if not possible and not search_impossible:
        return _record(run, record.IMPOSSIBLE, 0, 0, None, reason)
    timing, result = time_repeats(
        lambda: knight.solve(
            run.rows, run.cols, run.start, run.method, run.budget, run.closed, run.tiebreak or "first"
        ),
        repeats,
    )
    return _record(run, result.status, result.nodes, repeats, timing, reason)


def _record(run, status, nodes, repeats, timing, reason):
    median = None if timing is None else timing.median
    return record.RunRecord(
        rows=run.rows,
        cols=run.cols,
        start_row=run.start[0] + 1,
        start_col=run.start[1] + 1,
        method=run.method,
        tiebreak=run.tiebreak,
        closed=run.closed,
        represents=run.represents,
        status=status,
        nodes=nodes,
        budget=run.budget,
        repeats=repeats,
        median_s=median,
        min_s=None if timing is None else timing.min,
        max_s=None if timing is None else timing.max,
        nodes_per_s=nodes / median if median else None,
        reason=reason,
    )


def create(sweep, parent, command, extras=None):
    """Check ``sweep``, make its run folder under ``parent`` with meta.json,
    point ``latest`` at it and return the folder. Nothing is searched.
    ``extras``: what else the run does after the sweep (the preset sweeps
    time Numba against C and plain Python and run the corner study), or None."""
    plan.check(sweep)
    git = environment.git()
    date = datetime.date.today().isoformat()
    folder = folders.new_run_folder(parent, date, git["short"], git["dirty"])
    meta = {
        "schema": 1,
        "command": command,
        "sweep": sweep.to_json(),
        "extras": extras,
        "runs_planned": len(plan.runs(sweep)),
        "runs_done": 0,
        "complete": False,
        "not_run": [],
        "extras_done": [],
        "started": now(),
        "finished": None,
        "machine": environment.machine(),
        "software": environment.software(),
        "numba": environment.numba_settings(),
        "git": git,
        "compile_seconds": None,
        "sessions": [],
    }
    meta["not_run"] = parts_not_run(meta)
    record.write_json(folder / record.META, meta)
    folders.point_latest(folder)
    return folder


def load(folder):
    """The run folder ``folder`` names (or ``latest`` points at), its meta
    and its sweep; InvalidArgument if it cannot be read."""
    folder = folders.resolve(folder)
    meta = record.read_meta(folder / record.META)
    try:
        sweep = plan.Sweep.from_json(meta["sweep"])
        plan.check(sweep)
    except InvalidArgument as error:
        raise InvalidArgument(f"{folder / record.META}: {error}") from None
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise InvalidArgument(
            f"{folder / record.META}: its sweep cannot be read ({type(error).__name__}: {error})"
        ) from None
    _same_commit(folder, meta)
    runs_path = folder / record.RUNS
    if runs_path.exists():
        record.read_runs(runs_path)
    return folder, meta, sweep


def execute(folder, show_progress=None, after_run=None):
    """Run what is left of the sweep in ``folder``; return (done, planned).

    ``after_run(run)`` is called after each run is recorded (tests use it to
    interrupt). On KeyboardInterrupt (or any error) meta.json records how
    the session ended and the exception propagates. runs.csv stays locked
    throughout: a second sweep into the same folder is refused at once.
    """
    folder, meta, sweep = load(folder)
    planned = plan.runs(sweep)
    with record.RunsFile.open(folder / record.RUNS) as out:
        done = {row.key for row in out.records}
        remaining = [run for run in planned if run.key not in done]
        session = _begin_session(folder, meta, sweep)
        ended = "failed"
        try:
            _run_all(remaining, sweep, out, show_progress, after_run)
            ended = "complete"
        except KeyboardInterrupt:
            ended = "interrupted"
            raise
        finally:
            # counted from the file, not ``len(done) + out.appended``: a
            # Ctrl-C between a row's write and its count made meta.json say
            # one row fewer than runs.csv held
            out.flush()
            rows_done = len(record.read_runs(out.path))
            _end_session(folder, meta, session, ended, rows_done)
    return rows_done, len(planned)


def _same_commit(folder, meta):
    """A run folder holds one commit's rows: its report names one commit,
    and rows of two would be compared as if they were one program's."""
    recorded, now_at = meta["git"].get("commit"), environment.git()["commit"]
    if recorded != now_at:
        raise InvalidArgument(
            f"{folder} was measured at commit {str(recorded)[:12]}, this is {now_at[:12]}: "
            "resume it from that commit, or start a new run"
        )


def _run_all(remaining, sweep, out, show_progress, after_run):
    searched = [
        sweep.search_impossible or knight.start_possible(run.rows, run.cols, run.start, run.closed)[0]
        for run in remaining
    ]
    costs = [expected_seconds(run, sweep.repeats, yes) for run, yes in zip(remaining, searched, strict=True)]
    with Progress(costs, show_progress) as bar:
        for run, cost in zip(remaining, costs, strict=True):
            out.append(measure(run, sweep.repeats, sweep.search_impossible))
            bar.advance(cost, f"{run.rows}x{run.cols} {run.method}")
            if after_run is not None:
                after_run(run)


def _begin_session(folder, meta, sweep):
    """Compile (or load) the kernels before any timed run, and note when,
    where from and how long that took."""
    methods = sorted({method for part in sweep.parts for method in part.methods})
    session = {
        "started": now(),
        "finished": None,
        "ended": "running",
        "git": environment.git(),
        "pid": os.getpid(),
        "compile_seconds": compile_times(methods),
    }
    if meta["compile_seconds"] is None:
        meta["compile_seconds"] = session["compile_seconds"]
    meta["sessions"].append(session)
    record.write_json(Path(folder) / record.META, meta)
    return session


def _end_session(folder, meta, session, ended, rows_done):
    session["finished"] = now()
    session["ended"] = ended
    meta["runs_done"] = rows_done
    _settle(meta, session["finished"])
    record.write_json(Path(folder) / record.META, meta)


# the name ``parts_not_run`` gives the sweep's own runs
SWEEP_PART = "sweep"


def parts_not_run(meta):
    """The planned parts of a run that have not finished, in their order.

    Parameters
    ----------
    meta : dict
        The run's meta.json.

    Returns
    -------
    list of str
        ``SWEEP_PART`` while runs of the sweep are missing, then the key
        (in meta.json's "extras") of each planned study that has not
        finished. A run is complete only when this is empty.

    Examples
    --------
    >>> parts_not_run({"runs_done": 3, "runs_planned": 4, "extras": {"corners_largest": 30, "counts": None}})
    ['sweep', 'corners_largest']
    """
    missing = [SWEEP_PART] if meta["runs_done"] < meta["runs_planned"] else []
    done = set(meta.get("extras_done") or ())
    return missing + [key for key, setting in (meta.get("extras") or {}).items() if setting and key not in done]


def _settle(meta, when):
    """Set meta.json's "not_run" and "complete" from its parts, and "finished" when none is left."""
    meta["not_run"] = parts_not_run(meta)
    meta["complete"] = not meta["not_run"]
    if meta["complete"]:
        meta["finished"] = meta["finished"] or when


def study_finished(folder, extra):
    """Record in ``folder``'s meta.json that the study under ``extra`` finished.

    Parameters
    ----------
    folder : path-like
        The run folder.
    extra : str
        The study's key in meta.json's "extras".

    Returns
    -------
    bool
        Whether the run is complete now.

    Examples
    --------
    >>> study_finished(folder, "counts")  # doctest: +SKIP
    True
    """
    path = Path(folder) / record.META
    meta = record.read_meta(path)
    if extra not in meta.setdefault("extras_done", []):
        meta["extras_done"].append(extra)
    _settle(meta, now())
    record.write_json(path, meta)
    return meta["complete"]
