"""This module reads the cores this process may use and the memory it can still allocate.

It is the one place that reads either, so that the thread pools, the memory
checks, the projections and the harness's records agree. It uses the
standard library only, so it is cheap to import."""

import functools
import os
import resource


def usable_cores():
    """Return the number of cores this process may run on.

    The number is the size of the process's CPU affinity, which a container
    or ``taskset`` can narrow, not the number of cores of the machine.

    Returns
    -------
    int
        The usable cores, at least 1.

    Examples
    --------
    >>> from knight.harness_api import usable_cores
    >>> usable_cores() >= 1
    True
    """
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# Numba reads this when first imported and fails in a traceback on 0 or less
NUMBA_THREADS_VARIABLE = "NUMBA_NUM_THREADS"


def check_numba_threads(environ=os.environ):
    """InvalidArgument if ``NUMBA_NUM_THREADS`` is set to anything but an
    integer >= 1: checked before Numba is imported, which otherwise fails in
    a traceback (0) or warns, in a traceback's text, and ignores it (``abc``,
    empty)."""
    from knight.errors import InvalidArgument

    text = environ.get(NUMBA_THREADS_VARIABLE)
    if text is None:
        return
    try:
        threads = int(text)
    except ValueError:
        threads = None
    if threads is None or threads < 1:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise InvalidArgument(f"{NUMBA_THREADS_VARIABLE} must be an integer >= 1 (or unset), got {shown!r}")


UNLIMITED = float("inf")

_CGROUP_ROOT = "/sys/fs/cgroup"


def _meminfo_available(path="/proc/meminfo"):
    try:
        with open(path) as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return UNLIMITED


def _status_field(name, path="/proc/self/status"):
    """A ``kB`` field of /proc/self/status in bytes (``VmSize``), or None."""
    try:
        with open(path) as status:
            for line in status:
                if line.startswith(name + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def anonymous_memory():
    """Return the anonymous resident memory of this process in bytes.

    Anonymous memory (``RssAnon`` in /proc/self/status) is the memory that
    the kernel cannot reclaim. Pages of mapped files are page cache and are
    not counted.

    Returns
    -------
    int
        The bytes of anonymous resident memory, or 0 where they cannot be read.

    Examples
    --------
    >>> from knight.harness_api import anonymous_memory
    >>> anonymous_memory() >= 0
    True
    """
    return _status_field("RssAnon") or 0


def peak_resident_memory():
    """This process's peak resident memory over its life (``VmHWM``: its
    anonymous memory and the pages of the files it maps), 0 where it
    cannot be read."""
    return _status_field("VmHWM") or 0


def address_space_room():
    """Bytes left under RLIMIT_AS: the soft limit less the address space
    already mapped (``VmSize``; Numba and NumPy map hundreds of MB)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return UNLIMITED
    mapped = _status_field("VmSize") or 0
    return max(soft - mapped, 0)


def _read_number(path):
    """The integer in a cgroup file, None for ``max``, a missing or odd file."""
    try:
        with open(path) as handle:
            text = handle.read().strip()
        return int(text)
    except (OSError, ValueError):
        return None


@functools.lru_cache(maxsize=1)
def _own_cgroups(path="/proc/self/cgroup"):
    """``{controller: path}`` from /proc/self/cgroup; v2's line is ``0::/path``."""
    groups = {}
    try:
        with open(path) as handle:
            for line in handle:
                parts = line.rstrip("\n").split(":", 2)
                if len(parts) == 3:
                    for controller in parts[1].split(",") if parts[1] else [""]:
                        groups[controller] = parts[2]
    except OSError:
        pass
    return groups


def _ancestors(group):
    """``/a/b`` -> ``/a/b``, ``/a``, ``/``: a limit set on any of them binds."""
    parts = [part for part in group.split("/") if part]
    for depth in range(len(parts), -1, -1):
        yield "/" + "/".join(parts[:depth])


def _limits_in(folders, limit_file, usage_file):
    """``(limit, usage file)`` of each of ``folders`` that sets a limit."""
    found = []
    for folder in folders:
        limit = _read_number(os.path.join(folder, limit_file))
        # v1 writes "no limit" as a huge number near 2^63
        if limit is not None and limit < 2**60:
            found.append((limit, os.path.join(folder, usage_file)))
    return found


@functools.lru_cache(maxsize=8)
def _cgroup_limits(root, groups):
    """Every memory limit of the cgroups above this process, v2 and v1, as
    ``(limit, usage file)``. Found once: a process stays in its cgroup, and
    finding them reads a dozen files (70 us, against 8 us for MemAvailable,
    on a path the DP takes every step)."""
    groups = dict(groups)
    limits = []
    if "" in groups:  # the unified hierarchy (v2), under unified/ on a hybrid system
        unified = root if os.path.exists(os.path.join(root, "cgroup.controllers")) else os.path.join(root, "unified")
        folders = [os.path.join(unified, group.lstrip("/")) for group in _ancestors(groups[""])]
        limits += _limits_in(folders, "memory.max", "memory.current")
    if "memory" in groups:  # the v1 memory controller
        base = os.path.join(root, "memory")
        folders = [os.path.join(base, group.lstrip("/")) for group in _ancestors(groups["memory"])]
        limits += _limits_in(folders, "memory.limit_in_bytes", "memory.usage_in_bytes")
    return tuple(limits)


def cgroup_room(root=_CGROUP_ROOT, groups=None):
    """Bytes left under this process's cgroup memory limits (v2 and v1)."""
    groups = _own_cgroups() if groups is None else groups
    room = UNLIMITED
    for limit, usage_file in _cgroup_limits(root, tuple(sorted(groups.items()))):
        usage = _read_number(usage_file)
        if usage is not None:
            room = min(room, max(limit - usage, 0))
    return room


def available_memory():
    """Bytes this process can still allocate: the least of free memory, the
    address-space limit's room and the cgroup's room.

    A process can be stopped well before ``MemAvailable`` runs out: by its
    address-space limit (``ulimit -v``, where NumPy raises MemoryError) or
    by its control group's memory limit (a container, a systemd slice, a
    batch job), where the kernel kills it with SIGKILL and nothing can
    report why. Each reading that cannot be made (no /proc, no cgroup file,
    no limit set) is left out; the others still count."""
    room = min(_meminfo_available(), address_space_room(), cgroup_room())
    return int(room) if room != UNLIMITED else 2**62
