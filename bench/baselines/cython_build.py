"""This module builds the Cython kernels on first use and binds them to prepared searches.

It builds bench/baselines/knight_cython.pyx, and the prepared searches come
from bench/baselines/prepared.py.

Cython translates the .pyx to C; gcc compiles that at knight.c's ``FLAGS``
(bench/baselines/c.py), so the Cython and the gcc-C columns share a back end
and differ only by what Cython writes. The extension is cached beside the C
libraries, keyed by a hash of the source, Cython's version, the compiler and
the flags.
"""

import functools
import hashlib
import importlib.machinery
import importlib.util
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from bench.baselines import c

SOURCE = Path(__file__).with_name("knight_cython.pyx")
MODULE = "knight_cython"


class CythonMissing(RuntimeError):
    """Cython (the bench extra) or a C compiler is missing: skipped."""


def _translate(scratch):
    generated = Path(scratch) / f"{MODULE}.c"
    subprocess.run(
        [sys.executable, "-m", "cython", "-3", "-o", str(generated), str(SOURCE)], check=True, capture_output=True
    )
    return generated


def build():
    """Path to the compiled extension, building it first when needed."""
    try:
        import Cython
    except ImportError as missing:
        raise CythonMissing("Cython not installed (pip install -e '.[bench]'); skipped") from missing
    try:
        cc = c.named_compiler("gcc")
    except c.CompilerMissing as missing:
        raise CythonMissing(str(missing)) from missing
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    key = SOURCE.read_bytes() + " ".join([Cython.__version__, cc, c.version_line(cc), *c.FLAGS, suffix]).encode()
    target = c.cache_dir() / f"cython-{hashlib.sha256(key).hexdigest()[:16]}" / f"{MODULE}{suffix}"
    if not target.exists():
        with tempfile.TemporaryDirectory() as scratch:
            generated = _translate(scratch)
            include = sysconfig.get_paths()["include"]
            c.compile_into(target, [cc, *c.FLAGS, f"-I{include}", str(generated)])
    return target


@functools.cache
def load():
    """The compiled module, or raise CythonMissing."""
    path = build()
    spec = importlib.util.spec_from_file_location(MODULE, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CythonKernels:
    """``bind(prepared)`` -> ``(call, empty)``, as bench/baselines/c.py's
    ``ScratchC``: the same arguments as the Numba kernels, the bitboard
    one's scratch included."""

    name = "cython"

    def __init__(self):
        import Cython

        self._module = load()
        self.version = f"Cython {Cython.__version__}, gcc at {' '.join(c.FLAGS[:2])}"

    def bind(self, prepared):
        kind = prepared.kind
        arguments = prepared.arguments()
        name = "backtrack" if kind == "count" else kind
        return (
            functools.partial(getattr(self._module, name), *arguments),
            functools.partial(getattr(self._module, f"empty_{name}"), *arguments),
        )
