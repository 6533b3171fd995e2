"""What the report's tests share: one small run folder, made once per test
module, and the check that a figure is a real PNG."""

import matplotlib.image
import pytest

from bench.__main__ import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _is_png(path):
    assert path.read_bytes()[:8] == PNG_MAGIC
    height, width, _ = matplotlib.image.imread(path).shape
    assert height > 200 and width > 200


@pytest.fixture
def assert_png():
    """``assert_png(path)``: the file is a PNG of a readable size."""
    return _is_png


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    argv = [
        "--sizes",
        "5-6",
        "--shapes",
        "3x4",
        "--budget",
        "20000",
        "--repeats",
        "1",
        "--tiebreak",
        "first,roth",
        "--tours",
        "both",
        "--no-plots",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    return (out / "latest").resolve()
