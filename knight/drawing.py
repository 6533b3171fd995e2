"""This module draws tours and per-start counts as SVG pictures, written here as plain text.

One drawing code for the three places that show one: ``knight solve|count
--svg``, the notebook repr of ``Result`` and ``Count``, and the tours of the
benchmark report. Pure Python and NumPy; a drawing is produced in parts
(``tour_parts``, ``count_parts``) so that a long path is written a chunk at
a time, never held whole as Python objects.

Coordinates: each square is ``UNIT`` user units wide, square ``(r, c)``
spans ``[c*UNIT, (c+1)*UNIT]`` across and the same down (row 1 at the top,
as the command prints boards), so a square's centre is an integer point.

Size rules, chosen so that a drawing opens quickly anywhere:

* step numbers (and a count grid's numbers) are written when both sides
  are at most ``NUMBERED_SIDE``; past that they would be too small to read;
* the path goes through every square up to ``MAX_PATH_POINTS`` squares;
  a longer tour is drawn through every k-th square (k the smallest that
  keeps it within ``MAX_PATH_POINTS`` points) and its last, and says so in
  its title: at most 12 bytes a point (on a board of at most
  ``MAX_DRAWN_SQUARES``), so every tour drawing stays
  under ``MAX_TOUR_BYTES``;
* boards of more than ``MAX_DRAWN_SQUARES`` squares (2000 x 2000, the
  largest board the benchmark sweeps) are refused, and count grids of more
  than ``MAX_GRID_SQUARES`` starts.
"""

import math
import os

from knight.errors import InvalidArgument

UNIT = 10
NUMBERED_SIDE = 12
MAX_PATH_POINTS = 20_000
MAX_DRAWN_SQUARES = 2000 * 2000
MAX_GRID_SQUARES = 100 * 100
MAX_TOUR_BYTES = 300_000
# how wide a drawing is on screen, in pixels, at most and at its smallest square
WIDTH = 560
MAX_SQUARE_PIXELS = 44
# every drawing starts with these lines: a file that does not is not ours
# and is never overwritten
HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by knight -->\n'

FONTS = "DejaVu Sans, Arial, sans-serif"
LIGHT, DARK = "#eeeed2", "#b9c7a4"
# the dark squares under a path without numbers: a softer contrast, so
# that the path, not the squares, catches the eye
FAINT_DARK = "#d6dcc4"
PATH_COLOUR = "#1c3f8c"
START_COLOUR, END_COLOUR = "#1b7d32", "#c0262d"
NOTHING_COLOUR = "#d9d9d9"  # as the report's heatmaps show a square with no value
# viridis (matplotlib's default map, as the report's heatmaps use) at nine
# evenly spaced points; colours between are interpolated
VIRIDIS = (
    (68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
    (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37),
)  # fmt: skip
# plasma (matplotlib's) from 0 to 0.85, blue to orange: the order of a path
# too dense to follow; its yellow end is left out, it vanishes on light squares
PLASMA = ((13, 8, 135), (84, 2, 163), (139, 10, 165), (185, 50, 137), (219, 92, 104), (244, 136, 73))
PATH_PARTS = 24
# the start and end marks' radius on a board without numbers, in pixels at least
END_PIXELS = 5
# points of a path formatted at a time
_CHUNK = 1 << 13


def check_size(rows, cols, grid=False):
    """InvalidArgument, before any search, for a board too large to draw."""
    limit = MAX_GRID_SQUARES if grid else MAX_DRAWN_SQUARES
    if rows * cols > limit:
        what = "a count grid" if grid else "a tour"
        raise InvalidArgument(
            f"board {rows}x{cols} is too large to draw as {what}: --svg draws at most {limit:,} squares"
        )


def _pixels(rows, cols, width, largest=MAX_SQUARE_PIXELS):
    """The drawing's (width, height, square) on screen in pixels: squares
    of at most ``largest``, the longer side at most ``width``."""
    square = min(largest, width / max(rows, cols))
    return round(square * cols, 1), round(square * rows, 1), square


def _open_svg(rows, cols, width, title, margin=0):
    """The SVG's opening and its user units per pixel; ``margin`` pixels
    round the board, for marks on edge squares larger than the squares."""
    shown_width, shown_height, square = _pixels(rows, cols, width - 2 * margin)
    per_pixel = UNIT / square
    pad = margin * per_pixel
    box = f"{-pad:.4g} {-pad:.4g} {cols * UNIT + 2 * pad:.6g} {rows * UNIT + 2 * pad:.6g}"
    return (
        f"{HEADER}"
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown_width + 2 * margin:g}" '
        f'height="{shown_height + 2 * margin:g}" viewBox="{box}" font-family="{FONTS}">\n'
        f"<title>{_escape(title)}</title>\n"
    ), per_pixel


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _board(rows, cols, per_pixel, dark=DARK):
    """The squares, alternating colours; one colour where a square is under
    two pixels (a pattern that fine only shimmers)."""
    width, height = cols * UNIT, rows * UNIT
    if per_pixel > UNIT / 2:
        return f'<rect width="{width}" height="{height}" fill="{LIGHT}"/>\n'
    two = 2 * UNIT
    return (
        f'<defs><pattern id="knight-squares" width="{two}" height="{two}" patternUnits="userSpaceOnUse">'
        f'<rect width="{two}" height="{two}" fill="{LIGHT}"/>'
        f'<rect x="{UNIT}" width="{UNIT}" height="{UNIT}" fill="{dark}"/>'
        f'<rect y="{UNIT}" width="{UNIT}" height="{UNIT}" fill="{dark}"/></pattern></defs>\n'
        f'<rect width="{width}" height="{height}" fill="url(#knight-squares)"/>\n'
    )


def _centre(square, cols):
    row, col = divmod(int(square), cols)
    return col * UNIT + UNIT // 2, row * UNIT + UNIT // 2


def stride(squares):
    """Every how many squares the path of a tour of ``squares`` is drawn."""
    return max(1, math.ceil(squares / MAX_PATH_POINTS))


def path_squares(tour, closed=False):
    """The squares the drawn path goes through: every ``stride``-th square
    of ``tour`` and its last, then its first again if ``closed``."""
    import numpy as np

    tour = np.asarray(tour, dtype=np.int64)
    step = stride(len(tour))
    kept = tour[::step]
    if step > 1 and (len(tour) - 1) % step:
        kept = np.append(kept, tour[-1])
    return np.append(kept, tour[0]) if closed and len(tour) else kept


def _points(squares, cols):
    """``squares``' centres as SVG points text, a chunk at a time."""
    import numpy as np

    for begin in range(0, len(squares), _CHUNK):
        chunk = squares[begin : begin + _CHUNK]
        xs = (chunk % cols) * UNIT + UNIT // 2
        ys = (chunk // cols) * UNIT + UNIT // 2
        yield ("%d,%d " * len(chunk)) % tuple(np.column_stack((xs, ys)).ravel().tolist())


def tour_parts(rows, cols, tour, closed=False, title="", width=WIDTH):
    """The SVG of ``tour`` (0-based squares ``row * cols + col`` in visit
    order) on a ``rows`` x ``cols`` board, as strings to write in turn.

    The path is ``polyline`` elements of class ``path`` through square
    centres, each beginning where the one before ends; a closed tour's
    last one ends back on the first square. On a numbered board it is one
    line and each square shows its step (the first green, the last red);
    on a larger one it is ``PATH_PARTS`` lines coloured from blue (the
    start) to orange (the end), so that the order shows where lines cross
    too densely to follow, and the start is a green disc, the end a red
    square."""
    check_size(rows, cols)
    step = stride(len(tour))
    if step > 1:
        title = f"{title} (path through every {step}th square)".strip()
    numbered = max(rows, cols) <= NUMBERED_SIDE
    head, per_pixel = _open_svg(rows, cols, width, title, margin=0 if numbered else END_PIXELS + 2)
    yield head
    yield _board(rows, cols, per_pixel, DARK if numbered else FAINT_DARK)
    # a line at least a pixel wide on screen, however small the squares
    line = max(UNIT * 0.07, per_pixel)
    squares = path_squares(tour, closed)
    parts = 1 if numbered else max(1, min(PATH_PARTS, len(squares) - 1))
    cuts = [round(i * (len(squares) - 1) / parts) for i in range(parts + 1)]
    for i in range(parts):
        colour = PATH_COLOUR if parts == 1 else _interpolate(PLASMA, i / (parts - 1))
        yield (
            f'<polyline class="path" fill="none" stroke="{colour}" stroke-width="{line:.3g}" '
            f'stroke-linejoin="round" stroke-linecap="round" points="'
        )
        yield from _points(squares[cuts[i] : cuts[i + 1] + 1], cols)
        yield '"/>\n'
    if numbered:
        yield from _step_badges(tour, cols, len(str(len(tour))))
    else:
        yield from _ends(tour, cols, max(UNIT * 0.45, per_pixel * END_PIXELS))
    yield "</svg>\n"


def _ends(tour, cols, radius):
    """The start, a green disc, and the end, a red square, on a board too
    large for numbers."""
    if len(tour) == 0:
        return
    x, y = _centre(tour[0], cols)
    yield (
        f'<circle class="start" cx="{x}" cy="{y}" r="{radius:.3g}" fill="{START_COLOUR}" '
        f'stroke="white" stroke-width="{radius / 4:.3g}"/>\n'
    )
    x, y = _centre(tour[-1], cols)
    side = radius * 1.7
    yield (
        f'<rect class="end" x="{x - side / 2:.4g}" y="{y - side / 2:.4g}" width="{side:.3g}" height="{side:.3g}" '
        f'fill="{END_COLOUR}" stroke="white" stroke-width="{radius / 4:.3g}"/>\n'
    )


def _step_badges(tour, cols, digits):
    """Each square's 1-based step in a disc at its centre, where the path
    turns; the first disc green, the last red."""
    radius = UNIT * 0.31
    font = min(UNIT * 0.3, 2 * radius * 0.9 / (0.6 * digits))
    yield f'<g class="steps" font-size="{font:.3g}" text-anchor="middle" stroke-width="{UNIT * 0.04:g}">\n'
    last = len(tour)
    for step, square in enumerate(tour, 1):
        x, y = _centre(square, cols)
        fill, ink, kind = "white", "#111", ""
        if step == 1:
            fill, ink, kind = START_COLOUR, "white", ' class="start"'
        elif step == last:
            fill, ink, kind = END_COLOUR, "white", ' class="end"'
        yield (
            f'<circle{kind} cx="{x}" cy="{y}" r="{radius:g}" fill="{fill}" stroke="{PATH_COLOUR}"/>'
            f'<text x="{x}" y="{y}" dy="0.36em" fill="{ink}" stroke="none">{step}</text>\n'
        )
    yield "</g>\n"


def tour_svg(rows, cols, tour, closed=False, title="", width=WIDTH):
    """``tour_parts`` as one string."""
    return "".join(tour_parts(rows, cols, tour, closed, title, width))


def _interpolate(anchors, fraction):
    """The colour ``fraction`` (0..1) of the way along evenly spaced
    ``anchors``, as #rrggbb."""
    where = min(max(fraction, 0.0), 1.0) * (len(anchors) - 1)
    low = min(int(where), len(anchors) - 2)
    mix = where - low
    channels = (round(a + (b - a) * mix) for a, b in zip(anchors[low], anchors[low + 1], strict=True))
    return "#" + "".join(f"{channel:02x}" for channel in channels)


def _ink(colour):
    """Black or white, whichever reads on ``colour``."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#fff"


def count_parts(grid, closed=False, title="", width=WIDTH):
    """The SVG of a per-start count grid (``grid[r][c]``: tours from that
    start, ``closed`` or open ones) as a heatmap, as strings to write in
    turn. As in the report's heatmaps: viridis on a log scale from the
    smallest count found to the largest; a start with no tour grey; a
    start that theory rules out (colour parity, or no tour on the board at
    all) grey and crossed. The counts are written in on boards of at most
    ``NUMBERED_SIDE`` a side; every square carries its count as a tooltip;
    a line under the grid says what the colours mean."""
    from knight.geometry import theory

    rows, cols = len(grid), len(grid[0])
    check_size(rows, cols, grid=True)
    values = [[int(value) for value in line] for line in grid]
    found = [value for line in values for value in line if value > 0]
    low, high = (min(found), max(found)) if found else (1, 1)
    digits = len(str(high))
    # squares wide enough for the longest count at 0.6 em a digit
    font = min(UNIT * 0.34, UNIT * 0.82 / (0.6 * digits))
    legend = f"log colour {low:,} to {high:,}  \u00b7  grey: no tour  \u00b7  \u00d7: ruled out by theory"
    legend_font = min(UNIT * 0.3, cols * UNIT / (0.55 * len(legend)))
    shown_width, _, square = _pixels(rows, cols, width, max(MAX_SQUARE_PIXELS, 9.5 * digits))
    height = rows * UNIT + legend_font * 1.8
    yield (
        f"{HEADER}"
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown_width:g}" height="{height * square / UNIT:.1f}" '
        f'viewBox="0 0 {cols * UNIT} {height:.3g}" font-family="{FONTS}">\n<title>{_escape(title)}</title>\n'
    )
    written = max(rows, cols) <= NUMBERED_SIDE
    yield f'<g class="counts" font-size="{font:.3g}" text-anchor="middle">\n'
    for r, line in enumerate(values):
        for c, value in enumerate(line):
            possible = theory.start_possible(rows, cols, (r, c), closed)[0]
            yield _count_cell(r, c, value, possible, (low, high), written)
    yield "</g>\n"
    yield (
        f'<text class="legend" x="0.5" y="{rows * UNIT + legend_font * 1.3:.3g}" font-size="{legend_font:.3g}" '
        f'fill="#333">{legend}</text>\n</svg>\n'
    )


def _count_cell(r, c, value, possible, scale, written):
    low, high = scale
    if value > 0:
        # logs of the ints themselves: a ratio of counts past 2^1024 is no float
        fraction = (math.log(value) - math.log(low)) / (math.log(high) - math.log(low)) if high > low else 1.0
        colour = _interpolate(VIRIDIS, fraction)
    else:
        colour = NOTHING_COLOUR
    shown = str(value) if possible else "\u00d7"
    cell = (
        f'<rect x="{c * UNIT}" y="{r * UNIT}" width="{UNIT}" height="{UNIT}" fill="{colour}" '
        f'stroke="white" stroke-width="0.3"><title>{r + 1},{c + 1}: {value} tours</title></rect>'
    )
    if written:
        cell += (
            f'<text x="{c * UNIT + UNIT / 2:g}" y="{r * UNIT + UNIT / 2:g}" dy="0.36em" fill="{_ink(colour)}">'
            f"{shown}</text>"
        )
    return cell + "\n"


def count_svg(grid, closed=False, title="", width=WIDTH):
    """``count_parts`` as one string."""
    return "".join(count_parts(grid, closed, title, width))


def check_target(path):
    """``path`` for ``--svg``, if a drawing can be written there: ``-``
    (standard output), or a file name: InvalidArgument for a folder, a
    missing parent folder, a folder this process cannot write, something
    that is not a regular file, or a file that is not a knight drawing
    (never overwritten). A file name comes back as an
    ``atomic_write.CheckedPath``: its names were tried in its folder, and
    ``write`` replaces only the file seen here."""
    if path == "-":
        return path
    if path == "":
        raise InvalidArgument("--svg needs a file name, or - for standard output")
    from knight.files import atomic_write, journal

    if path.endswith(os.sep):  # "tour.svg/" passed every check, then failed after the work
        raise InvalidArgument(f"{path} ends in a slash, as a folder's name does; give a file name for the drawing")
    path = journal.usable_path(path, "the drawing")
    if os.path.lexists(path):
        if not os.path.isfile(path) or os.path.islink(path):
            raise InvalidArgument(f"{path} is not a regular file; give a file name for the drawing")
        with open(path, "rb") as file:
            if file.read(len(HEADER)) != HEADER.encode():
                raise InvalidArgument(f"{path} is not a knight drawing; refusing to overwrite it")
    return atomic_write.check(path, "the drawing")


def write(target, parts, out):
    """The drawing ``parts`` into ``target`` (checked by ``check_target``):
    to ``out`` for ``-``, else whole or not at all (``knight.files.atomic_write``);
    an OSError naming ``target`` if it cannot be written (a full disk: exit
    status 74, see ``knight.exit_status``), ``atomic_write.TargetChanged``
    if a checked file changed meanwhile."""
    if target == "-":
        out.writelines(parts)
        return
    from knight.files import atomic_write

    atomic_write.replace(target, lambda file: file.writelines(parts), shared=True)


def search_caption(result):
    """What a ``Result`` searched and found, in one line, as the CLI says it."""
    kind = "closed" if result.closed else "open"
    ties = "" if result.method == "backtrack" else f", tiebreak {result.tiebreak}"
    start = f"{result.start[0] + 1},{result.start[1] + 1}"
    return f"{result.method} ({kind}{ties}) on {result.rows}x{result.cols} from {start}: {result.nodes:,} nodes"


def result_parts(result, width=WIDTH):
    """The drawing of a ``Result``'s tour (it must have one), as parts."""
    return tour_parts(result.rows, result.cols, result.tour, result.closed, search_caption(result), width)


def count_caption(count):
    kind = "closed" if count.closed else "open"
    note = "" if count.complete else " (lower bounds: a search hit its budget)"
    return f"{kind} tours from each start on {count.rows}x{count.cols}: {count.total_tours:,} in all{note}"


def count_grid_parts(count, width=WIDTH):
    """The heatmap of a ``Count`` of every start, as parts."""
    return count_parts(count.tours, count.closed, count_caption(count), width)


def drawable(rows, cols, grid=False):
    """Whether ``check_size`` lets a board be drawn."""
    try:
        check_size(rows, cols, grid)
    except InvalidArgument:
        return False
    return True


def notebook_svg(thing):
    """The SVG a notebook shows for a ``Result`` (its tour) or a ``Count``
    (its grid of every start), or None where there is nothing to draw
    (no tour, one start, a board past the size rules): IPython then
    shows the text repr."""
    if hasattr(thing, "tour"):
        if thing.tour is None or not drawable(thing.rows, thing.cols):
            return None
        return "".join(result_parts(thing))
    if thing.start is not None or not drawable(thing.rows, thing.cols, grid=True):
        return None
    return "".join(count_grid_parts(thing))
