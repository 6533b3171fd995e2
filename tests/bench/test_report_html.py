"""index.html of a run folder, opened in a real browser: headless Debian
chromium, driven over the DevTools protocol. Every figure must render at its
PNG's own size, every tour drawing at its SVG's, nothing may be logged as an
error, and a screenshot is kept.
The browser test is skipped, with the reason, where chromium is not
installed (.ci/run installs it)."""

import base64
import json
import re
import shutil
import struct
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from bench.__main__ import main
from bench.report import page

# Debian's chromium; on GitHub's Ubuntu images, the Chromium or Chrome they ship
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium)")

QUICK_RUN = ["--sizes", "5", "--shapes", "3x4", "--budget", "20000", "--repeats", "1"]


def svg_size(data):
    """(width, height) an SVG asks for, in whole pixels."""
    root = ET.fromstring(data)
    return round(float(root.get("width"))), round(float(root.get("height")))


def png_size(data):
    """(width, height) from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


class DevTools:
    """Just enough of the DevTools protocol: commands, and the events seen meanwhile."""

    def __init__(self, url):
        import websocket  # websocket-client, a dev dependency

        # no Origin header: chromium refuses DevTools connections from origins it was not told to allow
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.events, self.next_id = [], 0

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message["result"]
            self.events.append(message)

    def wait_for(self, event, seconds=30):
        deadline = time.monotonic() + seconds
        while not any(message.get("method") == event for message in self.events):
            assert time.monotonic() < deadline, f"no {event} within {seconds} s"
            self.events.append(json.loads(self.socket.recv()))

    def errors(self):
        """Console errors, uncaught exceptions and failed loads, as text."""
        found = []
        for message in self.events:
            method, params = message.get("method"), message.get("params", {})
            if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                found.append(json.dumps(params["args"]))
            elif method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"]))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(params["entry"]["text"])
        return found


@pytest.fixture
def browser(tmp_path):
    """A headless chromium with a debugging port; yields its first page's DevTools."""
    # its log goes to a file, not a pipe: a pipe nobody reads would fill and stall the browser
    log = tmp_path / "chromium.log"
    with open(log, "w") as sink:
        process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
                f"--user-data-dir={tmp_path / 'profile'}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    try:
        port = _debugging_port(process, log)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as answer:
            target = next(t for t in json.load(answer) if t["type"] == "page")
        tools = DevTools(target["webSocketDebuggerUrl"])
        yield tools
        tools.socket.close()
    finally:
        process.terminate()
        process.wait(timeout=30)


def _debugging_port(process, log, seconds=60):
    """Chromium logs 'DevTools listening on ws://127.0.0.1:PORT/...' once it is ready."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", log.read_text(errors="replace"))
        if found:
            return int(found[1])
        if process.poll() is not None:
            break
        time.sleep(0.1)
    tail = log.read_text(errors="replace")[-2000:]
    raise AssertionError(f"chromium gave no DevTools port (exit {process.poll()}):\n{tail}")


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    assert main([*QUICK_RUN, "--out", str(out)]) == 0
    return (out / "latest").resolve()


def test_the_page_is_self_contained(run_folder):
    text = (run_folder / page.INDEX).read_text()
    assert not re.search(r"(src|href)=\"(?!data:|#)", text), "every figure is embedded, nothing is fetched"
    assert "<script" not in text and "<table>" in text and "<h2>Machine</h2>" in text


@needs_browser
def test_every_figure_renders_at_its_size_with_no_error(run_folder, browser, tmp_path):
    # a copy alone in an empty folder: it must not need the PNGs beside it
    alone = tmp_path / "alone" / page.INDEX
    alone.parent.mkdir()
    shutil.copy(run_folder / page.INDEX, alone)
    for domain in ("Page", "Runtime", "Log"):
        browser.call(f"{domain}.enable")
    browser.call("Page.navigate", url=alone.as_uri())
    browser.wait_for("Page.loadEventFired")
    images = browser.call(
        "Runtime.evaluate",
        returnByValue=True,
        expression="[...document.images].map(i => [i.alt, i.complete, i.naturalWidth, i.naturalHeight, i.src])",
    )["result"]["value"]
    figures = sorted(path.name for path in run_folder.glob("*.png"))
    tours = sorted(path.name for path in run_folder.glob("tour-*.svg"))
    assert len(images) == len(figures) + len(tours) and len(figures) >= 5 and len(tours) >= 4
    assert sum(source.startswith("data:image/svg+xml;base64,") for *_, source in images) == len(tours)
    for alt, complete, width, height, source in images:
        data = base64.b64decode(source.split(",", 1)[1])
        drawn = svg_size(data) if source.startswith("data:image/svg+xml") else png_size(data)
        assert complete and width > 0 and height > 0 and (width, height) == drawn, alt
    assert browser.errors() == []
    shot = browser.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    (tmp_path / "screenshot.png").write_bytes(base64.b64decode(shot["data"]))
    assert png_size((tmp_path / "screenshot.png").read_bytes())[0] > 0
