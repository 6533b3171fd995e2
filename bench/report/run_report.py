"""This module writes REPORT.md of a run folder, and the figures it embeds, from the folder's files alone.

The report holds the run's title, the summary that it opens with
(bench/report/summary.py), what was run and on what machine, the
sweep's figures, every study the run holds (in the order of
bench/studies/registry.py), then the sweep's summary and findings. ``python
-m bench.report`` (make plots) calls ``write`` on an existing run folder."""

from bench.report import page, summary, sweep_figures, sweep_sections, tour_pictures
from bench.run_folder import folders, record
from bench.studies.registry import STUDIES
from bench.sweep import sweep_runner
from bench.text_cells import markdown_table, plain
from knight import InvalidArgument
from knight.harness_api import atomic_write

REPORT = "REPORT.md"
# what a malformed file raises while it is read into a figure or a section
_MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def _sweep_table(meta):
    lines = []
    for part in meta["sweep"]["parts"]:
        shapes = part["shapes"]
        boards = ", ".join(shapes) if len(shapes) <= 6 else f"{shapes[0]} .. {shapes[-1]} ({len(shapes)} boards)"
        lines.append(
            (
                part["title"],
                boards,
                part["starts"],
                ", ".join(part["methods"]),
                ", ".join(part["tours"]),
                ", ".join(part["tiebreaks"]),
                f"{part['budget']:,}",
            )
        )
    return markdown_table(("part", "boards", "starts", "methods", "tours", "tie rules", "node budget"), lines)


def _machine_table(meta):
    machine, software, numba_, git = meta["machine"], meta["software"], meta["numba"], meta["git"]
    facts = [
        ("CPU", f"{machine['cpu_model']} ({machine['usable_cores']} of {machine['logical_cores']} cores usable)"),
        ("OS", machine["os"]),
        ("Python", software["python"]),
        ("numba / llvmlite / numpy", f"{software['numba']} / {software['llvmlite']} / {software['numpy']}"),
        ("numba threading layer", numba_["threading_layer"]),
        ("NUMBA_* settings", ", ".join(f"{k}={v}" for k, v in numba_["environment"].items()) or "none set"),
        ("git commit", git["commit"] + (" (with uncommitted changes)" if git["dirty"] else "")),
    ]
    return markdown_table(("", ""), facts)


def _not_run(meta):
    """The parts of an incomplete run that did not finish, as words."""
    studies = {
        study.extra: study.announcement.format(setting=setting)
        for study in STUDIES
        for setting in [(meta.get("extras") or {}).get(study.extra)]
    }
    names = [
        f"the sweep's last {meta['runs_planned'] - meta['runs_done']:,} runs"
        if key == sweep_runner.SWEEP_PART
        else studies.get(key, key)
        for key in meta.get("not_run") or sweep_runner.parts_not_run(meta)
    ]
    return plain("; ".join(names)) or "nothing"


def _compile_lines(meta):
    lines = []
    for number, session in enumerate(meta["sessions"], 1):
        times = ", ".join(f"{method} {seconds:.2f} s" for method, seconds in session["compile_seconds"].items())
        lines.append(f"- session {number} ({session['started']} to {session['finished']}, {session['ended']}): {times}")
    return lines


def render(meta, rows, figures, studied=(), tours=()):
    """The text of REPORT.md. ``figures``: the sweep's, {figure: path};
    ``studied``: ``(study, measured, figure path)`` of each study the run
    holds, in the registry's order."""
    state = (
        "complete"
        if meta["complete"]
        else f"**incomplete**: {meta['runs_done']} of {meta['runs_planned']} runs; "
        f"not run: {_not_run(meta)} (finish it with `python -m bench --resume`)"
    )
    measurements = {study.name: measured for study, measured, _ in studied}
    parts = [
        f"# Knight's-tour benchmark: {plain(meta.get('folder', ''))}".rstrip(),
        "",
        *summary.section(rows, figures, measurements),
        f"{len(rows):,} runs, {state}. Started {meta['started']}, finished {meta['finished'] or '-'}. "
        f"Each search was repeated {meta['sweep']['repeats']} times; times are the kernel's own, medians of "
        "the repeats. Node counts are exact and do not depend on the machine.",
        "",
        "## What was run",
        "",
        f"Command: {plain(' '.join(meta['command']))}",
        "",
        _sweep_table(meta),
        "",
        "## Machine",
        "",
        _machine_table(meta),
        "",
        "JIT compile (or cache load) time of each kernel's first call, never part of any run's time:",
        "",
        *_compile_lines(meta),
        "",
    ]
    parts += sweep_sections.figures_section(figures)
    for study, measured, figure in studied:
        parts += study.section(measured, figure, measurements)
    parts += sweep_sections.findings_section(rows)
    parts += tours
    return "\n".join(parts) + "\n"


def write(folder, heatmap_boards=None):
    """Redraw the figures, REPORT.md and index.html of run ``folder``; return REPORT.md's path."""
    folder = folders.resolve(folder)
    meta = record.read_meta(folder / record.META)
    rows = record.read_runs(folder / record.RUNS)
    meta["folder"] = folder.name
    figures = sweep_figures.draw_all(rows, folder, heatmap_boards)
    studied = [drawn for drawn in (_drawn(folder, study) for study in STUDIES) if drawn is not None]
    try:
        text = render(meta, rows, figures, studied, tour_pictures.section(folder))
    except _MALFORMED as error:
        raise InvalidArgument(f"the run in {folder} is malformed (at {error!r}): rerun it") from None
    path = folder / REPORT
    atomic_write.replace(path, lambda file: file.write(text), shared=True)
    page.write(folder, text, title=f"Knight's-tour benchmark: {folder.name}")
    return path


def _drawn(folder, study):
    """``(study, measured, figure path)`` from the study's file in
    ``folder``, its figure drawn; None when the run has no such file;
    InvalidArgument naming the file if it is malformed."""
    source = folder / study.data_file
    if not source.exists():
        return None
    measured = record.read_json(source)
    path = None if study.figure_file is None else folder / study.figure_file
    try:
        figure = None if path is None else study.figure(measured, path)
    except _MALFORMED as error:
        raise InvalidArgument(f"{source} is malformed (at {error!r}): rerun it") from None
    return study, measured, figure
