"""This module holds what every figure of a run shares.

That is matplotlib's Agg backend, the palette, the size and resolution of a
PNG, and the note that a figure with nothing to show carries. A run folder
always holds the same files."""

import matplotlib

matplotlib.use("Agg")

# pyplot is imported once the backend is chosen; figures take it from here
import matplotlib.pyplot as plt
from matplotlib import patheffects

from knight.harness_api import atomic_write

DPI = 110
# one colour per line, the same in every figure
PALETTE = plt.get_cmap("tab10").colors
# a white halo keeps a letter or label readable on every colour
HALO = [patheffects.withStroke(linewidth=2.5, foreground="white")]


def figure(title, xlabel, ylabel, size=(8, 5)):
    """One titled set of axes with a light grid."""
    drawn, axes = plt.subplots(figsize=size, layout="constrained")
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, which="major", alpha=0.3)
    return drawn, axes


def save(drawn, path, dpi=DPI):
    """Write ``drawn`` as a PNG at ``path`` (whole or not at all), free it,
    return the path."""
    try:
        atomic_write.replace(path, lambda file: drawn.savefig(file, dpi=dpi, format="png"), binary=True, shared=True)
    finally:
        plt.close(drawn)
    return path


def nothing_to_show(axes, text):
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes, color="grey")
