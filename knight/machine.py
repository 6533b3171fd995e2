"""What this machine lends a run: the cores this process may use and the
memory it can still allocate. The one place either is read, so that the
thread pools, the memory checks, the projections and the harness's
records agree. Standard library only: cheap to import."""

import os


def usable_cores():
    """The cores this process may run on (its CPU affinity, which a
    container or ``taskset`` narrows), not the machine's count."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def available_memory():
    """Bytes this process can still allocate without swapping, best guess."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
