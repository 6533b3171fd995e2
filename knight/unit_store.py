"""A resume file: finished work units, one JSON line each, append-only.

The first line describes the count (its plan's header); a file made for a
different count is refused rather than mixed in. Each later line records
one unit as it finishes, flushed at once, so a killed run loses nothing it
had reported. A crash can leave at most one torn last line (no newline):
it is cut off on opening, and that unit simply runs again.
"""

import json
import os
import time

from knight.errors import InvalidArgument

# fsync (survives power loss, not just a crash of the process) at most this
# often: a flush alone already survives SIGKILL
_SYNC_SECONDS = 1.0


class UnitStore:
    """``finished`` maps unit index to ``(status, tours, nodes)``."""

    def __init__(self, path, file, finished):
        self.path = path
        self.finished = finished
        self._file = file
        self._synced = time.monotonic()

    @classmethod
    def open(cls, path, header):
        path = os.fspath(path)
        finished = {}
        try:
            with open(path, "rb") as existing:
                data = existing.read()
        except FileNotFoundError:
            data = b""
        complete = data[: data.rfind(b"\n") + 1]
        lines = complete.splitlines()
        if lines:
            cls._check_header(path, lines[0], header)
            for line in lines[1:]:
                record = json.loads(line)
                finished[record["unit"]] = (record["status"], record["tours"], record["nodes"])
        file = open(path, "ab")
        if len(complete) != len(data):
            file.truncate(len(complete))
        if not lines:
            file.write(json.dumps(header).encode() + b"\n")
            file.flush()
        return cls(path, file, finished)

    @staticmethod
    def _check_header(path, line, header):
        try:
            found = json.loads(line)
        except ValueError:
            raise InvalidArgument(f"{path} is not a knight resume file") from None
        if found != header:
            differ = ", ".join(
                f"{key} {found.get(key)} (now {value})" for key, value in header.items() if found.get(key) != value
            )
            raise InvalidArgument(f"{path} records a different count: {differ}")

    def record(self, index, prefix, status, tours, nodes):
        line = {"unit": index, "prefix": list(prefix), "status": status, "tours": tours, "nodes": nodes}
        self._file.write(json.dumps(line).encode() + b"\n")
        self._file.flush()
        self.finished[index] = (status, tours, nodes)
        if time.monotonic() - self._synced > _SYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = time.monotonic()

    def close(self):
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
