"""This module writes MATRIX.md and matrix.png of a Numba matrix run from matrix.json alone.

bench/by_hand/numba_matrix/matrix_run.py measures matrix.json."""

import statistics

from bench import figure_style
from bench.text_cells import count_text, markdown_table


def _spread(ratios):
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def table(measured):
    versions = list(measured["loaded"])
    header = ("search", "nodes", "C Mn/s", *(f"{v} Mn/s" for v in versions), *(f"{v} / C" for v in versions))
    lines = []
    for row in measured["workloads"]:
        shape = "closed" if row["closed"] else "open"
        cells = row["versions"]
        lines.append(
            (
                f"{row['group']} {shape}",
                count_text(row["nodes"]),
                f"{row['c_rate'] / 1e6:.2f}",
                *(f"{cells[v]['rate'] / 1e6:.2f}" for v in versions),
                *(_spread(cells[v]["ratios"]) for v in versions),
            )
        )
    return markdown_table(header, lines)


def text(measured, figure_name):
    loaded = measured["loaded"]
    rounds = "1 round" if measured["rounds"] == 1 else f"{measured['rounds']} rounds"
    lines = [
        "# Knight's kernels across Numba releases",
        "",
        f"Nodes per CPU second of the kernel call under each release, against C ({measured['c']}) compiled once, "
        f"interleaved over {rounds}; a ratio is the median of the rounds' ratios (each round's "
        "pair ran back to back), its range in brackets. Every release placed C's nodes on every search (checked). "
        "The same prepared arrays and timing as the toolchain comparison (bench/studies/versus/versus_study.py).",
        "",
    ]
    lines += [
        f"- numba {version}: llvmlite {info['llvmlite']} (LLVM {info.get('llvm', '?')}), NumPy {info['numpy']}"
        for version, info in loaded.items()
    ]
    lines += [f"- numba {version} left out: {why}" for version, why in measured["missing"].items()]
    if measured["workloads"]:
        lines += ["", f"![each release over C]({figure_name})", "", table(measured)]
    return "\n".join(lines) + "\n"


def draw(measured, path):
    """Each release's throughput over C's, one line per search, whiskers
    the range over rounds."""
    versions = list(measured["loaded"])
    figure, axes = figure_style.figure(
        "Knight's kernels across Numba releases", "Numba release", "throughput / C's (clang or gcc)", size=(8, 4.5)
    )
    for index, row in enumerate(measured["workloads"]):
        ratios = [row["versions"][v]["ratios"] for v in versions]
        middle = [statistics.median(r) for r in ratios]
        errors = [
            [m - min(r) for m, r in zip(middle, ratios, strict=True)],
            [max(r) - m for m, r in zip(middle, ratios, strict=True)],
        ]
        shape = "closed" if row["closed"] else "open"
        axes.errorbar(
            range(len(versions)),
            middle,
            yerr=errors,
            marker="o",
            capsize=2,
            color=figure_style.PALETTE[index % len(figure_style.PALETTE)],
            label=f"{row['group']} {shape}",
        )
    axes.axhline(1.0, color="grey", linewidth=0.8)
    axes.set_xticks(range(len(versions)), versions)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    return figure_style.save(figure, path)


def write(measured, folder):
    """matrix.png (when anything ran) and MATRIX.md into ``folder``."""
    figure = folder / "matrix.png"
    if measured["workloads"]:
        draw(measured, figure)
    (folder / "MATRIX.md").write_text(text(measured, figure.name))
