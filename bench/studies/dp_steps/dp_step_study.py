"""This module compares the DP's step engines on the same totals of a few small boards.

The engines are the hash step (the engine before), the partitioned step in
memory and the partitioned step out of core. The study gives their
transitions per second and the anonymous memory they add for each state
held. bench/studies/dp_steps/dp_step_report.py draws figure 9 and writes a
section of REPORT.md from them.

Each board is measured by a worker process of its own
(bench/studies/dp_steps/dp_step_worker.py: what the engines are, how memory is
sampled), which warms every engine up first, so no time includes
compilation; a count under ``StepPlan.repeat_below`` seconds is repeated
and its median kept. Every engine's total of a board must equal the
others', and the published value where ``PUBLISHED`` has one, and their
transitions must be equal too (the rate divides them): a difference
raises, it is never a row. A board whose worker does not answer within
``StepPlan.seconds`` is a row ``stopped``, drawn as nothing. The result,
dp_steps.json in the run folder, holds one row per board and engine.

A study of its own, not three more engines of the counting study
(count_study.py): that one races engines up series of boards under time
caps, through the public API; this one counts a few fixed boards by
step policies (``StepPolicy``) that no public call takes, and reads memory, which
needs a worker whose every count starts from the same heap.
"""

import os
import time
from dataclasses import dataclass

from bench.studies.counts import count_worker
from bench.studies.dp_steps import dp_step_report
from bench.studies.dp_steps.dp_step_report import DONE, STOPPED, board_name
from bench.studies.dp_steps.dp_step_worker import ENGINES, ROOM_SHARE, SAMPLE_SECONDS
from bench.studies.study import Study
from knight.harness_api import usable_cores

DP_STEPS = "dp_steps.json"
# directed totals, as the tests hold them (tests/knight/test_dp_counts.py,
# test_dp_partitioned_step.py): (rows, cols, closed) -> (total, source)
PUBLISHED = {
    (4, 5, False): (2 * 82, "A079137"),
    (5, 5, False): (1728, "A165134(5)"),
    (6, 6, False): (6_637_920, "A165134(6)"),
    (5, 9, False): (2 * 264_895_640, "A083386"),
    (6, 6, True): (2 * 9_862 * 36, "A001230"),
    (5, 10, True): (2 * 13_311_268 * 50, "A383661"),
}


@dataclass(frozen=True)
class StepPlan:
    """The boards, ``(rows, cols, closed)``, smallest work last; a count
    under ``repeat_below`` seconds is run ``repeats`` times; a board's
    worker that has not answered in ``seconds`` is killed."""

    boards: tuple
    repeats: int = 3
    repeat_below: float = 0.5
    seconds: float = 120.0


def preset(quick=False):
    """The study of a preset sweep: 6x6 and 5x9 open, 6x8 and 5x10 closed
    (peak tables of 363 k, 133 k, 226 k and 19 k states): sized so that the
    study takes well under a minute on the 2-core machine (journal: "The
    counting study and the step-engine study"). Quick: 5x5 open and 6x6
    closed, seconds."""
    if quick:
        return StepPlan(((5, 5, False), (6, 6, True)), seconds=30.0)
    return StepPlan(((6, 6, False), (5, 9, False), (6, 8, True), (5, 10, True)))


def check_agreement(board, answers):
    """Raise unless every engine's total and transitions on ``board``
    agree, and the total is the published one where there is one."""
    where = board_name(*board)
    totals = {engine: answer["tours"] for engine, answer in answers.items()}
    if len(set(totals.values())) > 1:
        raise AssertionError(f"{where}: the step engines' totals differ: {totals}")
    transitions = {engine: answer["transitions"] for engine, answer in answers.items()}
    if len(set(transitions.values())) > 1:
        raise AssertionError(f"{where}: the step engines' transitions differ: {transitions}")
    published = PUBLISHED.get(tuple(board))
    total = next(iter(totals.values()))
    if published is not None and total != published[0]:
        raise AssertionError(
            f"{where}: the step engines counted {total:,}, published {published[0]:,} ({published[1]})"
        )
    if answers["out-of-core"]["out_of_core_steps"] == 0:
        raise AssertionError(f"{where}: no step of the out-of-core engine ran out of core")


def _row(board, engine, answer):
    rows, cols, closed = board
    row = {"rows": rows, "cols": cols, "closed": closed, "engine": engine}
    if answer is None:
        return row | {"status": STOPPED}
    added = answer["anon_peak"] - answer["anon_before"]
    published = PUBLISHED.get(tuple(board))
    return (
        row
        | {"status": DONE}
        | answer
        | {
            "published": None if published is None else published[1],
            "transitions_per_second": answer["transitions"] / answer["seconds"],
            # every thread's CPU: steadier than wall time on a loaded machine
            "transitions_per_cpu_second": answer["transitions"] / answer["cpu_seconds"],
            "anon_added": added,
            "bytes_per_state": added / answer["states_peak"] if answer["states_peak"] else None,
            # the spill folders' peak over the peak table's states: the
            # packed tables and runs a step holds on disk at once
            "disk_bytes_per_state": (
                answer["disk_peak"] / answer["states_peak"] if answer["disk_peak"] and answer["states_peak"] else None
            ),
        }
    )


def measure(study, worker=None, show=None):
    """Run ``study`` (a ``StepPlan``); what dp_steps.json holds.
    ``show(board)`` is called before each board."""
    own = worker is None
    worker = count_worker.Worker(module="bench.studies.dp_steps.dp_step_worker") if own else worker
    began, load = time.perf_counter(), os.getloadavg()
    rows = []
    try:
        for board in study.boards:
            if show is not None:
                show(board)
            request = dict(zip(("rows", "cols", "closed"), board, strict=True))
            request |= {"repeats": study.repeats, "repeat_below": study.repeat_below}
            answers = worker.ask(request, study.seconds)
            if answers is not None:
                check_agreement(board, answers)
            rows += [_row(board, engine, None if answers is None else answers[engine]) for engine in ENGINES]
    finally:
        if own:
            worker.close()
    return {
        "engines": list(ENGINES),
        "room_share": ROOM_SHARE,
        "sample_seconds": SAMPLE_SECONDS,
        "repeats": study.repeats,
        "repeat_below": study.repeat_below,
        "seconds": study.seconds,
        "cores": usable_cores(),
        "load_average": {"start": list(load), "end": list(os.getloadavg())},
        "warm_up_seconds": worker.warm_ups,
        "wall_seconds": time.perf_counter() - began,
        "rows": rows,
    }


class DpStepsStudy(Study):
    name = "steps"
    data_file = DP_STEPS
    figure_file = "9-dp-steps.png"
    extra = "dp_steps"
    skip_help = "preset sweeps: skip the DP's step engines, hash against partitioned and out of core (figure 9)"
    announcement = "the DP's step engines, hash against partitioned in memory and out of core"

    def setting(self, quick):
        return "quick" if quick else "default"

    def measure(self, setting):
        return measure(preset(quick=setting == "quick"))

    def figure(self, measured, path):
        return dp_step_report.draw(measured, path)

    def section(self, measured, figure, studied):
        return dp_step_report.section(measured, figure)


STUDY = DpStepsStudy()


def main(argv=None):
    """Run the study alone: dp_steps.json and figure 9 into FOLDER, the
    section printed."""
    import argparse
    from pathlib import Path

    from bench.run_folder import record

    parser = argparse.ArgumentParser(description="the DP's step engines alone (the counting of figure 9)")
    parser.add_argument("folder", type=Path, help="where dp_steps.json and the figure go (made if missing)")
    parser.add_argument("--quick", action="store_true", help="the quick sweep's boards")
    args = parser.parse_args(argv)
    for name in (DP_STEPS, STUDY.figure_file):
        if (args.folder / name).exists():
            parser.error(f"{args.folder / name} exists: give a folder without a study in it")
    args.folder.mkdir(parents=True, exist_ok=True)
    measured = measure(preset(args.quick), show=lambda board: print(f"dp steps: {board_name(*board)}", flush=True))
    record.write_json(args.folder / DP_STEPS, measured)
    figure = dp_step_report.draw(measured, args.folder / STUDY.figure_file)
    print("\n".join(dp_step_report.section(measured, figure)))


if __name__ == "__main__":
    main()
