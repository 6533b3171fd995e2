"""This module samples the peaks of a run's memory and disk.

It reads this process's anonymous memory (``RssAnon``) and the bytes that
its DP spill folders hold. A thread reads them every ``INTERVAL`` seconds,
and so does every ``sample()`` call at a step's end. The largest readings
are kept."""

import threading

from knight.files import owned_files
from knight.runtime import machine

# often enough to catch a step's chunk tables, which live for seconds on
# the boards whose peaks matter; each sample reads /proc and one folder
INTERVAL = 0.05


class PeakSampler:
    """Sample the peak memory and spill-folder bytes of this process while open.

    Use it as a context manager. A thread samples both every ``interval``
    seconds while the block runs, and so does every call of ``sample``. The
    sampler keeps the largest reading of each in ``ram`` and ``disk``.

    Parameters
    ----------
    interval : float, default INTERVAL
        Seconds between two samples of the thread.

    Attributes
    ----------
    ram : int
        The most bytes of anonymous memory (``RssAnon``) seen.
    disk : int
        The most bytes that the DP spill folders of this process held.

    Examples
    --------
    >>> from knight.harness_api import PeakSampler
    >>> with PeakSampler(interval=0.01) as peaks:
    ...     block = bytearray(1 << 20)
    >>> peaks.ram > 0, peaks.disk
    (True, 0)
    """

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
        """Read both now and keep the larger of each reading and its peak.

        The method can be passed as a DP progress function, since it ignores
        its arguments.

        Parameters
        ----------
        *_progress : object
            The arguments of a progress call, which are not read.

        Examples
        --------
        >>> from knight.harness_api import PeakSampler
        >>> sampler = PeakSampler()
        >>> sampler.sample(1, 64, 10)
        >>> sampler.ram > 0
        True
        """
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
