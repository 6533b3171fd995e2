"""This module draws figure 9 and writes the step-engine section of REPORT.md from dp_steps.json alone.

bench/studies/dp_steps/dp_step_study.py measures dp_steps.json."""

import numpy as np

from bench import figure_style
from bench.figure_style import plt
from bench.studies.dp_steps.dp_step_worker import ROOM_SHARE, SAMPLE_SECONDS
from bench.text_cells import markdown_table, seconds_text

# a row's status: counted, or its worker killed past the plan's seconds
DONE, STOPPED = "done", "stopped"
LABELS = {"hash": "hash (before)", "partitioned": "partitioned", "out-of-core": "out of core"}


def board_name(rows, cols, closed):
    return f"{rows}x{cols} {'closed' if closed else 'open'}"


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


# the dense table format the packed one replaced on disk: an 8-byte key and
# 8 bytes a count's limb, every state (one limb on every board here)
DENSE_BYTES_PER_STATE = 16


def draw(measured, path):
    """Figure 9: transitions per second (left), anonymous bytes added per
    peak state (middle) and the spill folders' peak bytes per peak state
    (right) of each step engine, grouped bars by board."""
    figure, (rated, held, stored) = plt.subplots(1, 3, figsize=(16, 5), layout="constrained")
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
        on_disk = [(x, cell) for x, (_, cell) in zip(offsets, done, strict=True) if cell.get("disk_bytes_per_state")]
        bars = stored.bar([x for x, _ in on_disk], [cell["disk_bytes_per_state"] for _, cell in on_disk], **style)
        stored.bar_label(bars, fmt="%.1f", fontsize="x-small")
    stored.axhline(DENSE_BYTES_PER_STATE, color="black", linestyle="--", linewidth=1)
    stored.annotate(
        f"one dense table: {DENSE_BYTES_PER_STATE} bytes a state (the format before)",
        (0.02, DENSE_BYTES_PER_STATE),
        xycoords=("axes fraction", "data"),
        xytext=(0, 3),
        textcoords="offset points",
        fontsize="x-small",
    )
    labels = [f"{board_name(*board)}\n{_peak(measured, board)}" for board in boards]
    for axes, ylabel in (
        (rated, "million transitions per second"),
        (held, "bytes of RssAnon added per peak state"),
        (stored, "spill folders' peak bytes per peak state"),
    ):
        axes.set_xticks(where, labels, fontsize="small")
        axes.set_ylabel(ylabel)
        axes.grid(True, axis="y", alpha=0.3)
    if not drawn:
        figure_style.nothing_to_show(rated, "no board was measured in this run")
    rated.set_title("speed: the total's transitions over its wall time (bars) and CPU time (\u25c6)", fontsize="small")
    held.set_title(f"memory (out of core: {ROOM_SHARE:g} of the largest step's tables as its room)", fontsize="small")
    stored.set_title("disk: packed tables and runs at once (out of core only)", fontsize="small")
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
                lines.append((board_name(*board), LABELS[engine], row["status"], "", "", "", "", "", ""))
                continue
            single = "\u00b9" if row["repeats"] == 1 else ""
            published = f" ({row['published']})" if row["published"] else ""
            per_state = "-" if row["bytes_per_state"] is None else f"{row['bytes_per_state']:.0f}"
            on_disk = row.get("disk_bytes_per_state")  # an older run's dp_steps.json has none
            disk = "-" if not on_disk else f"{_megabytes(row['disk_peak'])} \u00b7 {on_disk:.1f}"
            lines.append(
                (
                    board_name(*board),
                    LABELS[engine],
                    f"{row['tours']:,}{published}",
                    f"{seconds_text(row['seconds'])}{single} ({seconds_text(row['cpu_seconds'])})",
                    f"{row['transitions']:,}",
                    f"{row['transitions_per_second'] / 1e6:.2f} ({row['transitions_per_cpu_second'] / 1e6:.2f})",
                    f"{_megabytes(row['anon_added'])} \u00b7 {per_state}",
                    disk,
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
        "spill peak \u00b7 bytes/state",
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
        'every core), once with every step the hash step (`StepPolicy(table="hash")`, the engine before), '
        'once with every step partitioned in memory (`"partitioned"`), once partitioned with each step '
        f"given {ROOM_SHARE:g} of what the board's largest step takes in memory (the policy's `min_room`, under "
        "a one-byte budget), so that every large step runs out of core, through run files on disk "
        "(`out_of_core_step`). Speed is the run's transitions over its wall seconds (compilation excluded); "
        "memory is the peak of the process's `RssAnon` (sampled every "
        f"{SAMPLE_SECONDS * 1000:g} ms and after each step) less its value as the count started, over "
        "the run's peak states: page cache of the mapped spill files is not in it. Disk is the peak of "
        "the bytes the run's spill folders hold, sampled with it, over the same peak states: the packed "
        "tables (sorted keys as gaps, counts as variable-length numbers) and the runs a step holds at once, "
        f"against the {DENSE_BYTES_PER_STATE} bytes a state of one dense table, the format before. "
        "Every engine's total "
        "equals the others' and the published value where one is named (a difference fails the study).",
        "",
        f"**Rate over the hash step's**, per wall second (per CPU second, every thread): {_ratios(measured)}.",
        "",
        f"Times depend on the machine and its load: {measured['cores']} cores usable, load average "
        f"{load['start'][0]:.1f} as the study started and {load['end'][0]:.1f} as it ended "
        f"({seconds_text(measured['wall_seconds'])} in all). On a loaded machine wall time stretches and the "
        "ratios between engines move from run to run by tens of percent (docs/results.md); the bytes "
        "per state do not depend on the load. The largest table of these boards holds "
        f"{_largest(measured):,} states ({_megabytes(16 * _largest(measured))} at 16 bytes a state), within "
        "the caches or nearly: past them, "
        "at 7x7 open and 8x8 closed, the partitioned step's lead over the hash step is larger "
        "(docs/results.md).",
        "",
        f"![DP step engines]({figure.name})" if figure is not None else "",
        "",
        steps_table(measured),
        "",
        "\u00b9 a single run; the others are medians of "
        f"{measured['repeats']} (counts under {measured['repeat_below']:g} s).",
        "",
    ]
