"""This module compiles the C baselines on first use and calls them through ctypes.

``CKernels`` has knight.kernels' signatures of 125a638 and allocates its
scratch inside each call: the speed guard's C reference. ``ScratchC`` calls
the ``*_in`` kernels over scratch prepared before the clock
(bench/baselines/prepared.py), for the toolchain comparison, compiled by
gcc or by clang (``COMPILERS``) at the same ``FLAGS``.

A shared library is cached under ``~/.cache/knight`` (or
``$KNIGHT_CACHE``), keyed by a hash of the source, the compiler, its
version line and the flags, so an edit or a compiler upgrade recompiles and
nothing stale is ever loaded.
"""

import ctypes
import functools
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


# the compilers the toolchain comparison builds with, by the name a user types
COMPILERS = ("gcc", "clang")


def named_compiler(name):
    """The path of compiler ``name`` (``gcc``, ``clang``), or raise
    CompilerMissing with how to get it."""
    found = shutil.which(name)
    if not found:
        raise CompilerMissing(f"{name} not on PATH (Debian/Ubuntu: apt-get install {name}); skipped")
    return found


def cache_dir():
    """Where built libraries and environments are kept: ``$KNIGHT_CACHE``,
    else ``~/.cache/knight``."""
    return Path(os.environ.get("KNIGHT_CACHE", Path.home() / ".cache" / "knight"))


def version_line(cc):
    """The first line of ``cc --version``: part of the cache key, and what
    the report names the compiler by."""
    shown = subprocess.run([cc, "--version"], capture_output=True, text=True, check=False).stdout
    return shown.splitlines()[0] if shown else cc


def build(cc=None):
    """Path to knight.c compiled by ``cc`` (default: ``compiler()``),
    compiling it first when needed."""
    cc = cc or compiler()
    key = SOURCE.read_bytes() + " ".join([cc, version_line(cc), *FLAGS]).encode()
    target = cache_dir() / f"knight-{hashlib.sha256(key).hexdigest()[:16]}.so"
    if not target.exists():
        compile_into(target, [cc, *FLAGS, str(SOURCE)])
    return target


def compile_into(target, command):
    """Run ``command`` (a compiler line without ``-o``) to build ``target``:
    into a temporary name, then renamed, so that a concurrent or interrupted
    build never leaves a half-written library behind."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        partial = Path(scratch) / target.name
        subprocess.run([*command, "-o", str(partial)], check=True, capture_output=True)
        os.replace(partial, target)


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
            _pointer(neighbours, ctypes.c_int32),
            _i64(neighbours.shape[0]),
            _i64(start),
            _int(closed),
            _i64(budget),
            _int(first_only),
            _pointer(path, ctypes.c_int32),
            ctypes.byref(tours),
            ctypes.byref(nodes),
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
            _pointer(neighbours, ctypes.c_int32),
            _pointer(keys, ctypes.c_int64),
            _i64(neighbours.shape[0]),
            _i64(start),
            _int(closed),
            _i64(budget),
            _pointer(path, ctypes.c_int32),
            ctypes.byref(nodes),
        )
        return status, nodes.value

    def greedy(self, rows, cols, start, tiebreak, closed, budget, path):
        nodes = _i64()
        status = self._greedy(
            _i64(rows),
            _i64(cols),
            _i64(start),
            _int(tiebreak),
            _int(closed),
            _i64(budget),
            _pointer(path, ctypes.c_int32),
            ctypes.byref(nodes),
        )
        return status, nodes.value


def load():
    """The C kernels, or raise CompilerMissing."""
    return CKernels()


def _address(array):
    return ctypes.c_void_p(array.ctypes.data)


class ScratchC:
    """knight.c's ``*_in`` kernels built by one compiler, bound to prepared
    searches: ``bind(prepared)`` gives ``(call, empty)``, two
    argument-free callables, the kernel and the empty function of its
    arguments, every ctypes argument made before the clock."""

    def __init__(self, name):
        self.name = name
        cc = named_compiler(name)
        self.version = version_line(cc)
        self._library = ctypes.CDLL(str(build(cc)))

    def _function(self, symbol):
        function = getattr(self._library, symbol)
        function.restype = None
        return function

    def bind(self, prepared):
        kind = prepared.kind
        common = [_i64(prepared.start), _int(prepared.closed), _i64(prepared.budget)]
        path = _address(prepared.path)
        scratch = [_address(array) for array in prepared.scratch]
        out = _address(prepared.out)
        if kind == "greedy":
            arguments = [
                _i64(prepared.rows),
                _i64(prepared.cols),
                _i64(prepared.start),
                _int(prepared.tiebreak),
                _int(prepared.closed),
                _i64(prepared.budget),
                path,
                *scratch,
                out,
            ]
            kernel, empty = "knight_greedy_in", "knight_empty_greedy"
        elif kind in ("backtrack", "count"):
            arguments = [
                _address(prepared.neighbours),
                _i64(prepared.squares),
                *common,
                _int(kind == "backtrack"),
                path,
                *scratch,
                out,
            ]
            kernel, empty = "knight_backtrack_in", "knight_empty_backtrack"
        else:
            arguments = [
                _address(prepared.neighbours),
                _address(prepared.keys),
                _i64(prepared.squares),
                *common,
                path,
                *scratch,
                out,
            ]
            kernel = "knight_warnsdorff_bits_in" if kind == "warnsdorff_bits" else "knight_warnsdorff_in"
            empty = "knight_empty_warnsdorff"
        # ctypes objects, not NumPy arrays: the call converts nothing
        return functools.partial(self._function(kernel), *arguments), functools.partial(
            self._function(empty), *arguments
        )
