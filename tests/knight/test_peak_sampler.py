"""The sampler of a run's peak memory and spill bytes: the largest of
every reading, its thread's and the count's own (as a progress function),
kept for each."""

import mmap
import time

from knight.counting import peak_sampler


def test_each_peak_is_the_largest_reading_of_its_own(monkeypatch):
    ram, disk = iter([100, 300, 200, 250]), iter([7, 5, 9, 1])
    monkeypatch.setattr(peak_sampler.machine, "anonymous_memory", lambda: next(ram))
    monkeypatch.setattr(peak_sampler.owned_files, "spill_bytes", lambda: next(disk))
    sampler = peak_sampler.PeakSampler()
    for _ in range(3):
        sampler.sample()
    sampler.sample(5, 36, 1_000)  # as a DP progress function: step, steps, states held
    assert (sampler.ram, sampler.disk) == (300, 9)


def _fresh_pages(size):
    """``size`` bytes of private anonymous memory, each page touched: pages
    new to the process. A bytearray is not: malloc may place it in heap the
    process freed earlier and still holds resident (a long-lived test worker
    does), and then no page is added."""
    pages = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    pages[::4096] = b"\x01" * len(pages[::4096])
    return pages


def test_its_thread_samples_while_it_is_open():
    with peak_sampler.PeakSampler(interval=0.01) as sampled:
        before = sampled.ram
        held = _fresh_pages(64 << 20)
        # waited for, not slept on: under make test's load the thread can be
        # late by more than 0.3 s
        deadline = time.monotonic() + 10
        while sampled.ram < before + (60 << 20) and time.monotonic() < deadline:
            time.sleep(0.01)
        held.close()  # unmapped before the sampler's last reading, which alone could not see it
    assert sampled.ram >= before + (60 << 20)
