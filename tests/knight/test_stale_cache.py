"""A kernel cached from other sources of the package is compiled again.

Numba keys a cached kernel on its own module's file only. These tests hold
``knight.runtime._stale_cache`` to emptying a cache folder whose stamp is
not the digest of the sources at hand, and to nothing more.
"""

import os
import shutil
import subprocess
import sys
import textwrap
import types
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import knight
from knight.runtime import _stale_cache

PACKAGE = Path(knight.__file__).parent


def _dispatcher(folder):
    """A stand-in for a Numba dispatcher whose cache lives in ``folder``."""
    return types.SimpleNamespace(_cache=types.SimpleNamespace(_cache_path=str(folder)))


def _fresh_process(monkeypatch):
    """Forget the folders checked, as a new process would."""
    monkeypatch.setattr(_stale_cache, "_checked", set())


_names = st.lists(
    st.tuples(
        st.text(alphabet="abcdefghij_.-0123456789", min_size=1, max_size=12),
        st.sampled_from([".nbi", ".nbc", ".pyc", ".py", ".nbi.tmp", ""]),
    ).map(lambda parts: "kernel" + "".join(parts)),
    unique=True,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(names=_names, stamped=st.sampled_from(["none", "same", "other"]))
def test_only_the_cached_kernels_of_a_stale_folder_go(tmp_path_factory, names, stamped):
    folder = tmp_path_factory.mktemp("cache")
    digest = _stale_cache.sources_digest(str(PACKAGE))
    names = [name for name in names if name != _stale_cache.STAMP_NAME]
    for name in names:
        (folder / name).write_text("held")
    if stamped != "none":
        (folder / _stale_cache.STAMP_NAME).write_text(digest if stamped == "same" else "0" * 64)
    _stale_cache._checked.discard(str(folder))
    _stale_cache.forget_if_stale(_dispatcher(folder), str(PACKAGE))
    left = sorted(path.name for path in folder.iterdir())
    kept = names if stamped == "same" else [name for name in names if not name.endswith((".nbi", ".nbc"))]
    # the stamp is the sources' digest afterwards, and no temporary is left beside it
    assert left == sorted([*kept, _stale_cache.STAMP_NAME])
    assert (folder / _stale_cache.STAMP_NAME).read_text().strip() == digest


def test_a_folder_is_checked_once_a_process(tmp_path, monkeypatch):
    _fresh_process(monkeypatch)
    _stale_cache.forget_if_stale(_dispatcher(tmp_path), str(PACKAGE))
    # a kernel cached after the check, in the same process, stays
    (tmp_path / "kernel.nbi").write_text("held")
    (tmp_path / _stale_cache.STAMP_NAME).write_text("0" * 64)
    _stale_cache.forget_if_stale(_dispatcher(tmp_path), str(PACKAGE))
    assert (tmp_path / "kernel.nbi").exists()


def test_a_folder_that_cannot_be_written_is_left_alone(tmp_path, monkeypatch):
    _fresh_process(monkeypatch)
    (tmp_path / "kernel.nbi").write_text("held")
    tmp_path.chmod(0o500)
    try:
        _stale_cache.forget_if_stale(_dispatcher(tmp_path), str(PACKAGE))
    finally:
        tmp_path.chmod(0o700)
    if os.geteuid() != 0:  # root writes anywhere
        assert sorted(path.name for path in tmp_path.iterdir()) == ["kernel.nbi"]


_HELPER = """
from knight.runtime._jit import jit


@jit(inline="always")
def answer():
    return {value}
"""

_KERNEL = """
from knight.runtime._jit import jit
from knight import stale_probe_helper


@jit
def kernel():
    return stale_probe_helper.answer()
"""


def test_a_kernel_sees_its_helper_changed_in_another_module(tmp_path):
    package = tmp_path / "knight"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "stale_probe_kernel.py").write_text(textwrap.dedent(_KERNEL))
    run = [sys.executable, "-c", "from knight import stale_probe_kernel as k; print(k.kernel())"]
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    answers = []
    for value in (1, 2):
        (package / "stale_probe_helper.py").write_text(textwrap.dedent(_HELPER.format(value=value)))
        done = subprocess.run(run, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        answers.append(done.stdout.strip())
    # the kernel's own module is unchanged, so Numba alone would answer 1 again
    assert answers == ["1", "2"]
