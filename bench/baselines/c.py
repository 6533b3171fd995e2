"""The C baselines: compiled on first use with the system compiler, called
through ctypes with the same signatures as knight.search.search_kernels.

The shared library is cached under ``~/.cache/knight`` (or
``$KNIGHT_CACHE``), keyed by a hash of the source and the compiler flags, so
an edit recompiles and nothing stale is ever loaded.
"""

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("knight.c")
# -march=native: Numba compiles for the host CPU too, so both sides may use
# every instruction the machine has
FLAGS = ["-O3", "-march=native", "-shared", "-fPIC"]


class CompilerMissing(RuntimeError):
    """No C compiler on this machine: the C baseline is skipped."""


def compiler():
    """The C compiler to use: ``$CC``, else cc, gcc or clang on PATH."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise CompilerMissing("no C compiler found (set CC, or install cc/gcc/clang); C baselines skipped")


def _cache_dir():
    return Path(os.environ.get("KNIGHT_CACHE", Path.home() / ".cache" / "knight"))


def build():
    """Path to the compiled library, compiling it first when needed."""
    cc = compiler()
    digest = hashlib.sha256(SOURCE.read_bytes() + " ".join([cc, *FLAGS]).encode()).hexdigest()[:16]
    target = _cache_dir() / f"knight-{digest}.so"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        # compile to a temporary name, then rename: a concurrent or
        # interrupted build never leaves a half-written library behind
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            partial = Path(scratch) / target.name
            subprocess.run([cc, *FLAGS, "-o", str(partial), str(SOURCE)], check=True, capture_output=True)
            os.replace(partial, target)
    return target


_i64 = ctypes.c_int64
_int = ctypes.c_int


def _pointer(array, ctype):
    return array.ctypes.data_as(ctypes.POINTER(ctype))


class CKernels:
    """The C searches, with knight.search.search_kernels' argument order and returns."""

    def __init__(self, path=None):
        library = ctypes.CDLL(str(path or build()))
        self._backtrack = library.knight_backtrack
        self._warnsdorff = library.knight_warnsdorff
        self._greedy = library.knight_greedy
        self._warnsdorff_bits = library.knight_warnsdorff_bits
        for function in (self._backtrack, self._warnsdorff, self._greedy, self._warnsdorff_bits):
            function.restype = _int

    def backtrack(self, neighbours, start, closed, budget, first_only, path):
        tours, nodes = _i64(), _i64()
        status = self._backtrack(
            _pointer(neighbours, ctypes.c_int32), _i64(neighbours.shape[0]), _i64(start), _int(closed),
            _i64(budget), _int(first_only), _pointer(path, ctypes.c_int32), ctypes.byref(tours), ctypes.byref(nodes),
        )
        return status, tours.value, nodes.value

    def warnsdorff(self, neighbours, keys, start, closed, budget, path):
        return self._call_warnsdorff(self._warnsdorff, neighbours, keys, start, closed, budget, path)

    def warnsdorff_bits(self, neighbours, keys, start, closed, budget, path):
        return self._call_warnsdorff(self._warnsdorff_bits, neighbours, keys, start, closed, budget, path)

    @staticmethod
    def _call_warnsdorff(function, neighbours, keys, start, closed, budget, path):
        nodes = _i64()
        status = function(
            _pointer(neighbours, ctypes.c_int32), _pointer(keys, ctypes.c_int64), _i64(neighbours.shape[0]),
            _i64(start), _int(closed), _i64(budget), _pointer(path, ctypes.c_int32), ctypes.byref(nodes),
        )
        return status, nodes.value

    def greedy(self, rows, cols, start, tiebreak, closed, budget, path):
        nodes = _i64()
        status = self._greedy(
            _i64(rows), _i64(cols), _i64(start), _int(tiebreak), _int(closed), _i64(budget),
            _pointer(path, ctypes.c_int32), ctypes.byref(nodes),
        )
        return status, nodes.value


def load():
    """The C kernels, or raise CompilerMissing."""
    return CKernels()

