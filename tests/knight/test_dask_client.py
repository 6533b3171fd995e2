"""Reaching a Dask scheduler: addresses checked up front, and servers that
are not Dask (or never answer) turned into one-line errors in time."""

import contextlib
import gc
import io
import re
import socket
import threading
import time

import pytest

from knight import cli, exit_status
from knight.counting.cluster import dask_client
from knight.errors import InvalidArgument


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("tls://scheduler.example.org:443", "tls://scheduler.example.org:443"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
        ("inproc://10.0.0.5/4321/1", "inproc://10.0.0.5/4321/1"),
    ],
)
def test_addresses_dask_accepts(text, expected):
    assert dask_client.address(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no-port-here", "must be " + dask_client.FORM),
        ("tcp://127.0.0.1:0", "port must be in 1..65535"),
        ("tcp://127.0.0.1:99999", "port must be in 1..65535"),
        ("http://127.0.0.1:80", "unknown scheduler protocol 'http'"),
        ("tcp://a b:1", "must be " + dask_client.FORM),
        ("tcp://host:" + "9" * 100, "must be " + dask_client.FORM),
        (None, "must be " + dask_client.FORM),
        (8786, "must be " + dask_client.FORM),
    ],
)
def test_malformed_addresses_are_refused_up_front(text, message):
    with pytest.raises(InvalidArgument, match=re.escape(message)):
        dask_client.address(text)


@contextlib.contextmanager
def _server(answer, lifetime=20.0):
    """A TCP server on loopback that sends ``answer`` (b"" for nothing) to
    each connection and holds it open; it stops when the block ends, or
    after ``lifetime`` seconds whatever happens."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    port = listener.getsockname()[1]
    stop = threading.Event()

    def serve():
        held = []
        deadline = time.monotonic() + lifetime
        with listener:
            while not stop.is_set() and time.monotonic() < deadline:
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    continue
                if answer:
                    connection.sendall(answer)
                held.append(connection)
        for connection in held:
            connection.close()

    thread = threading.Thread(target=serve, name="fake-server", daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{port}"
    finally:
        stop.set()
        thread.join(5)


# what an HTTP server answers a Dask handshake: read as a frame length, it
# asks Dask for exabytes
_HTTP_REPLY = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" + b"\xff" * 64


def _count_error(address, capsys):
    began = time.monotonic()
    status = cli.main(["count", "3", "4", "--scheduler", address], out=io.StringIO())
    return status, capsys.readouterr().err, time.monotonic() - began


def test_a_server_that_is_not_dask_is_one_line(capsys):
    """Issue 13, item 3: an HTTP server's reply was read as a frame length:
    'Unable to allocate 3.07 EiB' and a traceback."""
    pytest.importorskip("distributed")
    with _server(_HTTP_REPLY) as address:
        status, error, _ = _count_error(address, capsys)
    assert status == exit_status.EXIT_USAGE
    assert error.count("\n") == 1 and "does not answer as a Dask scheduler" in error
    assert "EiB" not in error


def test_a_refused_handshake_leaves_no_client_for_a_later_collection(capsys):
    """A half-made Client left to the garbage collector closed itself under
    Dask's class-wide LoopRunner lock in whichever thread collected: in a
    LocalCluster's starting IO-loop thread, that start waited 10 s and failed."""
    distributed = pytest.importorskip("distributed")
    before = {id(client) for client in _live_clients(distributed)}
    with _server(_HTTP_REPLY) as address:
        status, _, _ = _count_error(address, capsys)
    assert status == exit_status.EXIT_USAGE
    assert [client for client in _live_clients(distributed) if id(client) not in before] == []


def _live_clients(distributed):
    """Return the Dask clients that the garbage collector tracks."""
    clients = []
    for thing in gc.get_objects():
        try:
            if isinstance(thing, distributed.Client):
                clients.append(thing)
        except ReferenceError:
            continue  # a weak proxy whose object is gone: isinstance asks the object
    return clients


def test_a_server_that_never_answers_fails_in_time(monkeypatch, capsys):
    """Issue 13, item 3: a server that accepts and stays silent held the
    count until the peer closed, not the promised CONNECT_SECONDS."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_client, "CONNECT_SECONDS", 1)
    with _server(b"") as address:
        status, error, seconds = _count_error(address, capsys)
    assert status == exit_status.EXIT_USAGE
    assert error.count("\n") == 1 and "no answer within 1 s" in error
    assert seconds < 1 + 3  # the deadline, plus planning a 3x4 count


def test_nothing_listening_is_one_line(monkeypatch, capsys):
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_client, "CONNECT_SECONDS", 1)
    status, error, _ = _count_error("tcp://127.0.0.1:9", capsys)
    assert status == exit_status.EXIT_USAGE
    assert error.startswith("knight: error: cannot reach the Dask scheduler") and error.count("\n") == 1


def test_the_cli_checks_the_address_before_searching(capsys):
    status, error, _ = _count_error("no-port-here", capsys)
    assert status == exit_status.EXIT_USAGE and "must be " + dask_client.FORM in error


def _closed_port():
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_refused_port_is_named_at_once(capsys):
    """Issue 19: a refused port was 'no answer' after about 6 s."""
    pytest.importorskip("distributed")
    status, error, seconds = _count_error(f"tcp://127.0.0.1:{_closed_port()}", capsys)
    assert status == exit_status.EXIT_USAGE
    assert error.count("\n") == 1 and "connection refused" in error
    assert seconds < 3


def test_a_host_that_does_not_resolve_is_named(capsys):
    """Issue 19: an unresolvable host was 'no answer' after about 6 s
    (.invalid never resolves: RFC 2606)."""
    pytest.importorskip("distributed")
    status, error, _ = _count_error("tcp://no-such-host.invalid:8786", capsys)
    assert status == exit_status.EXIT_USAGE
    assert error.count("\n") == 1 and "does not resolve" in error


def test_a_scheduler_without_workers_is_one_line_after_the_stated_wait(monkeypatch, capsys):
    """Issue 19: a real scheduler with no workers made the count wait forever."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(dask_client, "WORKER_SECONDS", 1)
    with distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=":0") as cluster:
        status, error, seconds = _count_error(cluster.scheduler_address, capsys)
    assert status == exit_status.EXIT_USAGE
    assert error.count("\n") == 1 and "has no workers (waited 1 s)" in error
    assert seconds < 1 + 5
