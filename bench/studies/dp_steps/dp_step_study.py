"""The DP's step engines against each other: the hash step (the engine
before), the partitioned step in memory and the partitioned step out of
core, each counting the same totals on a few boards of 0.1-3 s; their
transitions per second and the anonymous memory they add per state held
(figure 9 and a section of REPORT.md).

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
settings of ``dp_run`` that no public call takes, and reads memory, which
needs a worker whose every count starts from the same heap.
"""

import os
import time
from dataclasses import dataclass

import numpy as np

from bench.report import figure_style
from bench.report.figure_style import plt
from bench.report.text_cells import markdown_table, seconds_text
from bench.studies.counts import count_worker
from bench.studies.dp_steps.dp_step_worker import ENGINES, ROOM_SHARE, SAMPLE_SECONDS
from bench.studies.study import Study
from knight.harness_api import usable_cores

DP_STEPS = "dp_steps.json"
DONE, STOPPED = "done", "stopped"
LABELS = {"hash": "hash (before)", "partitioned": "partitioned", "out-of-core": "out of core"}
# directed totals, as the tests hold them (tests/knight/test_dp_engine.py,
# test_dp_partition.py): (rows, cols, closed) -> (total, source)
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
    study takes well under a minute on the 2-core machine (its times are in
    docs/measurements.md). Quick: 5x5 open and 6x6 closed, seconds."""
    if quick:
        return StepPlan(((5, 5, False), (6, 6, True)), seconds=30.0)
    return StepPlan(((6, 6, False), (5, 9, False), (6, 8, True), (5, 10, True)))


def board_name(rows, cols, closed):
    return f"{rows}x{cols} {'closed' if closed else 'open'}"


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


def boards_of(measured):
    """The boards in the order they ran, ``(rows, cols, closed)``."""
    seen = []
    for row in measured["rows"]:
        board = (row["rows"], row["cols"], row["closed"])
        if board not in seen:
            seen.append(board)
    return seen


def _cell(measured, board, engine):
    return next(
        row
        for row in measured["rows"]
        if (row["rows"], row["cols"], row["closed"]) == board and row["engine"] == engine
    )


def draw(measured, path):
    """Figure 9: transitions per second (left) and anonymous bytes added
    per peak state (right) of each step engine, grouped bars by board."""
    figure, (rated, held) = plt.subplots(1, 2, figsize=(12, 5), layout="constrained")
    figure.suptitle("The DP's step engines: hash (before) against partitioned, in memory and out of core")
    boards = boards_of(measured)
    width = 0.8 / len(measured["engines"])
    where = np.arange(len(boards))
    drawn = False
    for i, engine in enumerate(measured["engines"]):
        cells = [_cell(measured, board, engine) for board in boards]
        done = [(x, cell) for x, cell in zip(where, cells, strict=True) if cell["status"] == DONE]
        drawn = drawn or bool(done)
        style = dict(width=width, color=figure_style.PALETTE[i], label=LABELS[engine])
        offsets = [x + (i - (len(measured["engines"]) - 1) / 2) * width for x, _ in done]
        bars = rated.bar(offsets, [cell["transitions_per_second"] / 1e6 for _, cell in done], **style)
        rated.bar_label(bars, fmt="%.2f", fontsize="x-small")
        cpu = [cell["transitions_per_cpu_second"] / 1e6 for _, cell in done]
        rated.plot(offsets, cpu, "D", color="black", markersize=4)
        sized = [(x, cell) for x, (_, cell) in zip(offsets, done, strict=True) if cell["bytes_per_state"] is not None]
        bars = held.bar([x for x, _ in sized], [cell["bytes_per_state"] for _, cell in sized], **style)
        held.bar_label(bars, fmt="%.0f", fontsize="x-small")
    labels = [f"{board_name(*board)}\n{_peak(measured, board)}" for board in boards]
    for axes, ylabel in (
        (rated, "million transitions per second"),
        (held, "bytes of RssAnon added per peak state"),
    ):
        axes.set_xticks(where, labels, fontsize="small")
        axes.set_ylabel(ylabel)
        axes.grid(True, axis="y", alpha=0.3)
    if not drawn:
        figure_style.nothing_to_show(rated, "no board was measured in this run")
    rated.set_title("speed: the total's transitions over its wall time (bars) and CPU time (\u25c6)", fontsize="small")
    held.set_title(f"memory (out of core: {ROOM_SHARE:g} of the largest step's tables as its room)", fontsize="small")
    if drawn:  # outside the axes: no bar's label under it
        handles = held.get_legend_handles_labels()[0]
        handles.append(
            plt.Line2D([], [], marker="D", color="black", linestyle="", label="per CPU second (every thread)")
        )
        figure.legend(handles=handles, loc="outside lower center", ncols=4, fontsize="small")
    return figure_style.save(figure, path)


def _peak(measured, board):
    done = [
        row for row in measured["rows"] if (row["rows"], row["cols"], row["closed"]) == board and row["status"] == DONE
    ]
    return f"{done[0]['states_peak']:,} states" if done else "not measured"


def _megabytes(count):
    return f"{count / 2**20:.1f} MiB"


def steps_table(measured):
    """One line per board and engine."""
    lines = []
    for board in boards_of(measured):
        for engine in measured["engines"]:
            row = _cell(measured, board, engine)
            if row["status"] != DONE:
                lines.append((board_name(*board), LABELS[engine], row["status"], "", "", "", "", ""))
                continue
            single = "\u00b9" if row["repeats"] == 1 else ""
            published = f" ({row['published']})" if row["published"] else ""
            per_state = "-" if row["bytes_per_state"] is None else f"{row['bytes_per_state']:.0f}"
            lines.append(
                (
                    board_name(*board),
                    LABELS[engine],
                    f"{row['tours']:,}{published}",
                    f"{seconds_text(row['seconds'])}{single} ({seconds_text(row['cpu_seconds'])})",
                    f"{row['transitions']:,}",
                    f"{row['transitions_per_second'] / 1e6:.2f} ({row['transitions_per_cpu_second'] / 1e6:.2f})",
                    f"{_megabytes(row['anon_added'])} \u00b7 {per_state}",
                    f"{row['out_of_core_steps']} of {row['steps']}",
                )
            )
    header = (
        "board",
        "step",
        "total",
        "seconds (CPU)",
        "transitions",
        "M transitions/s (per CPU s)",
        "RssAnon added \u00b7 bytes/state",
        "steps out of core",
    )
    return markdown_table(header, lines)


def _ratios(measured):
    """The partitioned engines' rate over the hash step's, per board, in words."""
    parts = []
    for board in boards_of(measured):
        cells = {engine: _cell(measured, board, engine) for engine in measured["engines"]}
        if any(cell["status"] != DONE for cell in cells.values()):
            continue
        wall, cpu = (cells["hash"][key] for key in ("transitions_per_second", "transitions_per_cpu_second"))
        shown = ", ".join(
            f"{LABELS[engine]} {cells[engine]['transitions_per_second'] / wall:.2f}x "
            f"({cells[engine]['transitions_per_cpu_second'] / cpu:.2f}x)"
            for engine in measured["engines"][1:]
        )
        parts.append(f"{board_name(*board)}: {shown}")
    return "; ".join(parts) or "no board was measured"


def _largest(measured):
    return max((row["states_peak"] for row in measured["rows"] if row["status"] == DONE), default=0)


def section(measured, figure):
    """REPORT.md's part on the DP's step engines."""
    load = measured["load_average"]
    return [
        "## The DP's step engines: hash against partitioned, in memory and out of core",
        "",
        "The frontier DP's open or closed total of each board (`total_with_work`: one run, no forced end, "
        'every core), once with every step the hash step (`dp_run.TABLE = "hash"`, the engine before), '
        'once with every step partitioned in memory (`"partitioned"`), once partitioned with each step '
        f"given {ROOM_SHARE:g} of what the board's largest step takes in memory (`dp_run.MIN_ROOM`, under "
        "a one-byte budget), so that every large step runs out of core, through run files on disk "
        "(`spill_step`). Speed is the run's transitions over its wall seconds (compilation excluded); "
        "memory is the peak of the process's `RssAnon` (sampled every "
        f"{SAMPLE_SECONDS * 1000:g} ms and after each step) less its value as the count started, over "
        "the run's peak states: page cache of the mapped spill files is not in it. Every engine's total "
        "equals the others' and the published value where one is named (a difference fails the study).",
        "",
        f"**Rate over the hash step's**, per wall second (per CPU second, every thread): {_ratios(measured)}.",
        "",
        f"Times depend on the machine and its load: {measured['cores']} cores usable, load average "
        f"{load['start'][0]:.1f} as the study started and {load['end'][0]:.1f} as it ended "
        f"({seconds_text(measured['wall_seconds'])} in all). On a loaded machine wall time stretches and the "
        "ratios between engines move from run to run by tens of percent (docs/counting-dp.md); the bytes "
        "per state do not depend on the load. The largest table of these boards holds "
        f"{_largest(measured):,} states ({_megabytes(16 * _largest(measured))} at 16 bytes a state), within "
        "the caches or nearly: past them, "
        "at 7x7 open and 8x8 closed, the partitioned step's lead over the hash step is larger "
        "(docs/counting-dp.md).",
        "",
        f"![DP step engines]({figure.name})" if figure is not None else "",
        "",
        steps_table(measured),
        "",
        "\u00b9 a single run; the others are medians of "
        f"{measured['repeats']} (counts under {measured['repeat_below']:g} s).",
        "",
    ]


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
        return draw(measured, path)

    def section(self, measured, figure, studied):
        return section(measured, figure)


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
    print("\n".join(section(measured, draw(measured, args.folder / STUDY.figure_file))))


if __name__ == "__main__":
    main()
