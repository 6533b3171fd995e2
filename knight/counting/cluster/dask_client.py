"""This module connects to a Dask scheduler (``knight count --scheduler ADDRESS``).

The address's form is checked before anything is imported or searched.
The connection then has one overall deadline: Dask's own ``timeout`` bounds
the TCP connect but not the handshake after it, so a server that accepts
and never answers would hold the count until the peer gives up (minutes),
and a server that answers but is not Dask makes Dask read garbage as a
frame length ("Unable to allocate 3.07 EiB"). Both become one-line errors.
Imports ``distributed`` only when connecting.
"""

import gc
import re
import socket
import threading
import warnings

from knight.counting.cluster import cluster_faults
from knight.errors import InvalidArgument
from knight.validate import shown

# the most connecting may take, all told
CONNECT_SECONDS = 5
# how long a count waits for a scheduler with no workers to get one
WORKER_SECONDS = 30

PROTOCOLS = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(
    r"(?:(?P<protocol>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r":(?P<port>[0-9]{1,5})"
)
# the address forms --scheduler takes, as its help and the README give them:
# the protocol may be left out (tcp)
FORM = f"[{'|'.join(PROTOCOLS)}://]HOST:PORT"
_FORM = f"{FORM} (tcp if no protocol is given; e.g. 10.0.0.5:8786)"
# a cluster in this very process (LocalCluster(processes=False)): API only
_IN_PROCESS = re.compile(r"inproc://[A-Za-z0-9._:/-]+")


def address(text):
    """``text`` as a scheduler address Dask accepts, or InvalidArgument."""
    if not isinstance(text, str):
        raise InvalidArgument(f"the scheduler address must be {_FORM}, got {shown(text)}")
    if _IN_PROCESS.fullmatch(text.strip()):
        return text.strip()
    found = _ADDRESS.fullmatch(text.strip())
    if found is None:
        raise InvalidArgument(f"the scheduler address must be {_FORM}, got {shown(text)}")
    protocol = found["protocol"] or "tcp"
    if protocol not in PROTOCOLS:
        raise InvalidArgument(f"unknown scheduler protocol {protocol!r}; the address must be {_FORM}")
    port = int(found["port"])
    if not 1 <= port <= 65535:
        raise InvalidArgument(f"the scheduler port must be in 1..65535, got {port}")
    return f"{protocol}://{found['host']}:{port}"


def _reachable(where, seconds):
    """Refuse at once a host that does not resolve or a port nobody listens
    on: Dask would retry both until its timeout and call them 'no answer'."""
    found = _ADDRESS.fullmatch(where)
    if found is None:  # inproc://: nothing to reach
        return
    host, port = found["host"].strip("[]"), int(found["port"])
    try:
        places = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise InvalidArgument(
            f"cannot reach the Dask scheduler at {where!r}: host {host!r} does not resolve ({error})"
        ) from None
    refused = None
    for family, kind, proto, _, place in places:
        with socket.socket(family, kind, proto) as probe:
            probe.settimeout(seconds)
            try:
                probe.connect(place)
                return
            except ConnectionRefusedError as error:
                refused = error
            except OSError:  # a silent host: Dask's own attempt reports it
                return
    if refused is not None:
        raise InvalidArgument(
            f"cannot reach the Dask scheduler at {where!r}: connection refused (nothing listens there)"
        )


def _wait_for_workers(client, where, seconds):
    """A scheduler with no worker would take the units and never answer."""
    if client.scheduler_info().get("workers"):
        return
    try:
        client.wait_for_workers(1, timeout=seconds)
    except TimeoutError:
        cluster_faults.close(client)
        raise InvalidArgument(
            f"the Dask scheduler at {where!r} has no workers (waited {seconds:g} s): "
            f"start some with 'dask worker {where}'"
        ) from None


def connect(text, seconds=None, worker_seconds=None):
    """A ``distributed.Client`` of the scheduler at ``text``, connected
    within ``seconds`` (None: ``CONNECT_SECONDS``) all told and with at
    least one worker within ``worker_seconds`` (None: ``WORKER_SECONDS``)
    more, or InvalidArgument saying why not. Dask's log lines are silenced
    from here on (``cluster_faults.quiet``)."""
    seconds = CONNECT_SECONDS if seconds is None else seconds
    worker_seconds = WORKER_SECONDS if worker_seconds is None else worker_seconds
    where = address(text)
    try:
        from distributed import Client
        from distributed.versions import VersionMismatchWarning
    except ImportError:
        raise InvalidArgument("--scheduler needs Dask: pip install 'knight-tours[dask]'") from None
    cluster_faults.quiet()
    # Dask prints a 13-line table of package versions when it cannot read
    # this process's (short of file descriptors, it reads none): a count
    # that then fails says so in its own line, and one that works needs no table
    warnings.filterwarnings("ignore", category=VersionMismatchWarning)
    _reachable(where, seconds)
    outcome = {}

    def attempt():
        try:
            outcome["client"] = Client(where, timeout=seconds)
        except BaseException as error:  # whatever a stranger's bytes make Dask raise
            outcome["reason"] = _reason(error)
        if "reason" in outcome:
            # The half-made Client is a reference cycle. Left to a later
            # collection, its __del__ takes Dask's class-wide LoopRunner lock
            # in whichever thread collects: a LoopRunner starting in that
            # thread then waits on its own starter for 10 s and fails.
            gc.collect()

    # a daemon thread: one that hangs in the handshake cannot keep the
    # process alive after the error is reported
    thread = threading.Thread(target=attempt, name="knight-dask-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    if "client" in outcome:
        _wait_for_workers(outcome["client"], where, worker_seconds)
        return outcome["client"]
    reason = outcome.get("reason", f"no answer within {seconds} s (is it a Dask scheduler?)")
    raise InvalidArgument(f"cannot reach the Dask scheduler at {where!r}: {reason}")


def _reason(error):
    """One line on why connecting failed."""
    if isinstance(error, (OSError, TimeoutError)):
        text = str(error).strip()
        return text.splitlines()[0] if text else type(error).__name__
    # anything else (a MemoryError for a length read from a stranger's
    # bytes, a decoding error) means the server does not speak Dask
    return f"the server there does not answer as a Dask scheduler ({type(error).__name__})"
