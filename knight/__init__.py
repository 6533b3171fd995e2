"""Find, count and check knight's tours with Numba kernels.

``solve``, ``count_tours`` and ``count_total`` load Numba on first use, so importing
``knight`` (and running ``knight exists`` or ``knight --help``) stays cheap.
"""

from knight.errors import InvalidArgument
from knight.geometry.symmetry import symmetry_class
from knight.geometry.theory import start_possible, tour_exists
from knight.geometry.tour_check import is_tour
from knight.runtime._lazy import lazy_getattr

__all__ = [
    "Count",
    "InvalidArgument",
    "Progress",
    "Result",
    "Total",
    "WidthTotal",
    "WidthTotals",
    "compile_kernels",
    "count_every_width",
    "count_total",
    "count_tours",
    "is_tour",
    "solve",
    "start_possible",
    "symmetry_class",
    "tour_exists",
]

_LAZY = {
    "solve": "knight.search.solver",
    "count_tours": "knight.counting.driver",
    "count_total": "knight.counting.driver",
    "count_every_width": "knight.counting.driver",
    "compile_kernels": "knight.search.solver",
    "Result": "knight.result",
    "Count": "knight.result",
    "Progress": "knight.result",
    "Total": "knight.result",
    "WidthTotal": "knight.result",
    "WidthTotals": "knight.result",
}

__getattr__ = lazy_getattr("knight", _LAZY)
