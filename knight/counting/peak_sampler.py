"""The peaks of a run's memory and disk, sampled: this process's anonymous
memory (``RssAnon``) and the bytes its DP spill folders hold, read by a
thread every ``INTERVAL`` seconds and at every ``sample()`` call (a step's
end), the largest kept."""

import threading

from knight.files import owned_files
from knight.runtime import machine

# often enough to catch a step's chunk tables, which live for seconds on
# the boards whose peaks matter; each sample reads /proc and one folder
INTERVAL = 0.05


class PeakSampler:
    """A context manager: ``ram`` and ``disk``, the most bytes of anonymous
    memory and of spill folders seen while it was open."""

    def __init__(self, interval=INTERVAL):
        self.interval = interval
        self.ram = 0
        self.disk = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="knight-peak-sampler", daemon=True)
        # the thread and the count's own calls (a step's end) both sample:
        # neither's reading lost to the other's
        self._lock = threading.Lock()

    def sample(self, *_progress):
        """Read both now and keep the larger; callable as a DP progress
        function (its arguments unread)."""
        ram, disk = machine.anonymous_memory(), owned_files.spill_bytes()
        with self._lock:
            self.ram, self.disk = max(self.ram, ram), max(self.disk, disk)

    def _watch(self):
        while not self._stop.wait(self.interval):
            self.sample()

    def __enter__(self):
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *_exc):
        self._stop.set()
        self._thread.join()
        self.sample()
        return False
