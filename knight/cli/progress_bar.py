"""This module draws a count's progress bar on a terminal.

The bar shows work units or DP steps. For the DP it also shows the states
and the memory, and on a cluster the workers' rates."""

import contextlib
import os
import sys

from knight.exit_status import stopped_by_signal


@contextlib.contextmanager
def progress_bar(unit, resume=None):
    """Yield a count's progress callback: a bar in ``unit``s on a terminal, or None elsewhere.

    Where a Ctrl-C or a signal stops the count, one line says where its
    finished work is kept: ``resume``, the count's resume file, if it holds
    something. A stop before the first unit or step finished leaves none to
    point at.
    """
    try:
        # run_command has given a closed stderr a null sink, which is no terminal
        if not sys.stderr.isatty():
            yield None
            return
        from tqdm import tqdm

        with tqdm(unit=unit, file=sys.stderr, leave=False) as bar:

            def progress(now):
                bar.total = now.total
                bar.n = now.done
                if now.held is not None:
                    text = progress_text(now.held, _peak_memory_mib(), now.rates, now.saved)
                    bar.set_postfix_str(text, refresh=False)
                bar.refresh()

            yield progress
    except BaseException as error:
        if stopped_by_signal(error) and resume and os.path.isfile(resume):
            print(f"knight: finished work is kept in {resume}; run again with --resume to go on", file=sys.stderr)
        raise


def progress_text(held, memory_mib, rates=None, saved=0):
    """The DP's part of the progress line: the states held, of which
    ``saved`` stand for two mirror images, this process's peak memory, and
    on a cluster (``rates``: worker to transitions a second of its task
    time in the last step) the workers' slowest and fastest rate. One line
    at any number of workers."""
    text = f"{held:,} states"
    if saved:
        text += f" ({saved:,} of them for two, by mirror image)"
    text += f", peak memory {memory_mib:,} MiB"
    if rates:
        slowest, fastest = min(rates.values()), max(rates.values())
        span = _rate(fastest) if len(rates) == 1 else f"{_rate(slowest)}-{_rate(fastest)}"
        text += f", {len(rates)} worker{'s' if len(rates) > 1 else ''} at {span} transitions/s"
    return text


def _rate(value):
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def _peak_memory_mib():
    import resource

    # ru_maxrss is in KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
