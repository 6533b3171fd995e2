"""This module reads and writes an append-only journal file.

A journal is a header line that says what the file is, then one record a
line. knight's resume files and the harness's runs.csv are both journals.
This module is the one place that decides how such a file is opened,
checked, locked, appended to and read back.

* A file is ours only if its first line is the header we expect. Anything
  else is refused with one line and never written to: a journal of the same
  kind for other work (the caller's ``differs`` says how it differs), or a
  file that is no journal of this kind at all ("my notes").
* Every line after the header ends in its own checksum: the first 16 hex
  digits of the SHA-256 of the header and the line, so a record cannot be
  altered, nor moved into a journal for other work, without its check
  failing. A complete line whose checksum fails is damage: the file is
  refused, naming the file and the line, and none of its records counts.
  The line must then parse as a record; one that does not is refused the
  same way. The one recovery: a last line without its newline, cut short
  by a crash, is dropped (and trimmed from the file before appending, once
  the header has shown the file is ours).
* The checksum catches accidents (a flipped bit, a torn or spliced write,
  a record copied from another file), not a deliberate edit: whoever can
  edit the file can recompute it, and a secret key to make it a MAC would
  have to be kept where the same user can read it.
* An open journal holds an exclusive ``flock``: a second writer is refused
  at once, and the OS releases the lock when the holder dies, even by
  SIGKILL.
* Each record is flushed at once (it survives the process being killed) and
  fsynced at most every ``SYNC_SECONDS`` (it survives the machine going
  down, give or take that).
* A path that cannot hold a journal (a folder, a missing parent folder, no
  permission) is one line, before anything is written.
"""

import contextlib
import fcntl
import hashlib
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass

from knight.errors import InvalidArgument
from knight.exit_status import naming
from knight.files import owned_files

SYNC_SECONDS = 1.0
# errors a record parser raises for a line that is not a record
MALFORMED = (ValueError, KeyError, TypeError, IndexError, AttributeError)
# a first line longer than the header by this much is not the header: the
# file is refused without reading the rest of it (it may be huge)
_PEEK_BYTES = 1 << 16
# hex digits of a record's SHA-256 kept on its line: 64 bits, so a damaged
# line passes by chance once in 2^64
CHECKSUM_DIGITS = 16


@dataclass(frozen=True)
class Format:
    """What a journal holds. ``kind`` names the file in messages (``a knight
    resume file``); ``header`` is its exact first line; ``parse`` turns one
    record line (text, no newline) into a record, raising one of
    ``MALFORMED`` for a line that is not one; ``differs``, given the first
    line of a file with another header, says how that journal differs (for
    a journal of this kind made for other work) or returns None (for a file
    that is not of this kind). ``separator`` comes between a record's text
    and its checksum (a CSV journal names the checksum as a last column)."""

    kind: str
    header: str
    parse: Callable
    differs: Callable | None = None
    separator: str = "\t"

    def checksum(self, text):
        """The checksum of record ``text`` in a journal with this header."""
        digest = hashlib.sha256(self.header.encode("utf-8") + b"\n" + text.encode("utf-8"))
        return digest.hexdigest()[:CHECKSUM_DIGITS]

    def line(self, text):
        """Record ``text`` as its line is written (no newline): text, separator, checksum."""
        return f"{text}{self.separator}{self.checksum(text)}"

    def unsealed(self, line):
        """The record text of a line whose checksum holds; ValueError if it does not."""
        text, separator, checksum = line.rpartition(self.separator)
        if not separator or checksum != self.checksum(text):
            raise ValueError("its checksum does not match: the file was damaged or edited")
        return text


def _path(path):
    try:
        path = os.fspath(path)
    except TypeError:
        raise InvalidArgument(f"a file name must be a path, got {type(path).__name__}") from None
    if not path:  # no file: refused here, before any work, not when first written
        raise InvalidArgument("a file name must not be empty")
    return path


def followed(path, kind):
    """The one symlink rule of every file knight writes in place of the
    user (resume files, checkpoints, pictures): a link is followed to the
    file it names, which is then read, refused or replaced as that file
    would be, the link itself left as it was. A link to nothing (dangling,
    or a loop) is refused: there is no file to judge."""
    if not os.path.islink(path):
        return path
    try:
        return os.path.realpath(path, strict=True)
    except (OSError, RuntimeError):
        raise InvalidArgument(
            f"{path} is a symbolic link to nothing (dangling, or a loop); give a file name for {kind}"
        ) from None


def _check_path(path, kind):
    """One line on why ``path`` cannot hold a journal, before opening it."""
    if os.path.isdir(path):
        raise InvalidArgument(f"{path} is a folder; give a file name for {kind}")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InvalidArgument(f"cannot create {path}: folder {parent} does not exist")


def _os_error(path, error):
    return InvalidArgument(f"cannot open {path}: {error.strerror or error}")


def _records(path, format_, data):
    """The records of a journal's bytes ``data``; InvalidArgument if its
    header is not ``format_``'s or a line (but a torn last one) is not a
    record. Returns ``(records, complete bytes)``."""
    complete = data[: data.rfind(b"\n") + 1]
    lines = complete.split(b"\n")[:-1]
    _check_header(path, format_, lines[0] if lines else data)
    records = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            text = format_.unsealed(line.decode("utf-8"))
        except ValueError as error:  # UnicodeDecodeError too: damage, before any parsing
            raise InvalidArgument(
                f"{path}, line {number}: a damaged line of {format_.kind} ({_why(error)}); "
                "nothing in the file is used, and it is left untouched"
            ) from None
        try:
            records.append(format_.parse(text))
        except MALFORMED as error:
            raise InvalidArgument(f"{path}, line {number}: not a record of {format_.kind} ({_why(error)})") from None
    return records, complete


def _why(error):
    text = str(error).splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:80]


def _check_header(path, format_, first):
    try:
        text = first.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text == format_.header:
        return
    difference = None
    if text is not None and format_.differs is not None:
        try:
            difference = format_.differs(text)
        except MALFORMED:
            difference = None
    if difference:
        raise InvalidArgument(f"{path} {difference}")
    raise InvalidArgument(f"{path} is not {format_.kind}; it is left untouched")


def _read_all(path, format_, file):
    """A journal's bytes, its header checked on the first bytes alone."""
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        raise InvalidArgument(f"{path} is not a regular file; give a file name for {format_.kind}")
    data = file.read(len(format_.header.encode("utf-8")) + _PEEK_BYTES)
    if b"\n" in data or len(data) > len(format_.header.encode("utf-8")):
        _check_header(path, format_, data.split(b"\n", 1)[0])
    return data + file.read()


def usable_path(path, kind, replaced=False):
    """``path`` as a string (a link followed: see ``followed``), if a file
    for ``kind`` (a journal, a checkpoint) can be read and written there,
    all checked before any work: InvalidArgument for a value that is not a
    path, a folder, a missing parent folder, a FIFO or device (opening one
    can block for ever), a file or folder this process cannot write (a
    read-only filesystem included). ``replaced``: the file is rewritten by
    renaming a new one over it, so its folder must be writable too."""
    path = followed(_path(path), kind)
    if not path:
        # '' would name the folder it is in only when the file is written, after the work
        raise InvalidArgument(f"the file name is empty; give a file name for {kind}")
    _check_path(path, kind)
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path):
        if not os.path.isfile(path):
            raise InvalidArgument(f"{path} is not a regular file; give a file name for {kind}")
        if not os.access(path, os.R_OK | os.W_OK) or (replaced and not os.access(folder, os.W_OK)):
            raise InvalidArgument(f"cannot write {path}: {_why_unwritable(folder)}")
    elif not os.access(folder, os.W_OK):
        raise InvalidArgument(f"cannot create {path}: {_why_unwritable(folder)}")
    return path


def _why_unwritable(folder):
    try:
        read_only = os.statvfs(folder).f_flag & os.ST_RDONLY
    except OSError:
        read_only = False
    return "Read-only file system" if read_only else "Permission denied"


def _check_seals(path, kind, data, separator):
    """InvalidArgument, as ``Journal.open`` would give it, for the first
    complete line of ``data`` whose checksum fails against the file's own
    header: damage is refused before the work, not after what it prints."""
    lines = data[: data.rfind(b"\n") + 1].split(b"\n")[:-1]
    if not lines:
        return  # a header longer than the peek, cut short: Journal.open judges it
    sealed = Format(kind=kind, header=lines[0].decode("utf-8"), parse=None, separator=separator)
    for number, line in enumerate(lines[1:], start=2):
        try:
            sealed.unsealed(line.decode("utf-8"))
        except ValueError as error:
            raise InvalidArgument(
                f"{path}, line {number}: a damaged line of {kind} ({_why(error)}); "
                "nothing in the file is used, and it is left untouched"
            ) from None


def check(path, kind, recognise, starts=b"", separator="\t", sealed=None):
    """Before the work that decides a journal's header: InvalidArgument if
    ``path`` cannot hold one, or holds a file whose first line
    ``recognise`` (text -> bool) does not take for a journal of ``kind``
    (or, cut short with no line end, does not begin with ``starts``), or
    that another run holds locked, or one with a damaged line (its
    checksum, against the file's own header, fails: ``separator`` comes
    before it; ``sealed``, given the header, says whether its records carry
    checksums, None: they all do).
    Nothing is written; ``Journal.open`` checks it all again, and locks."""
    path = usable_path(path, kind)
    if not os.path.exists(path):
        return path
    if not os.path.isfile(path):
        raise InvalidArgument(f"{path} is not a regular file; give a file name for {kind}")
    try:
        with open(path, "rb") as file:
            # a file another run holds is refused now too, before this run
            # prints what it plans (the lock goes with the file's closing)
            _lock(path, file)
            head = file.read(_PEEK_BYTES)
            if b"\n" in head or len(head) == _PEEK_BYTES:
                try:
                    ours = recognise(head.split(b"\n", 1)[0].decode("utf-8"))
                except MALFORMED:
                    ours = False
                if not ours:
                    raise InvalidArgument(f"{path} is not {kind}; it is left untouched")
                if sealed is None or sealed(head.split(b"\n", 1)[0].decode("utf-8")):
                    _check_seals(path, kind, head + file.read(), separator)
            elif head and not (head.startswith(starts) or starts.startswith(head)):
                # a short file with no line end can be our header cut short by a
                # crash (Journal.open keeps that), but only if it starts as every
                # header of the kind does: anything else is refused now, before the
                # work (and what it prints) begins
                raise InvalidArgument(f"{path} is not {kind}; it is left untouched")
    except OSError as error:
        raise _os_error(path, error) from None
    return path


def read(path, format_):
    """The records of the journal at ``path`` (no lock: for readers).
    InvalidArgument if it cannot be read or is not ``format_``'s."""
    path = _path(path)
    if os.path.exists(path) and not os.path.isfile(path):
        raise InvalidArgument(f"{path} is not a regular file; give a file name for {format_.kind}")
    try:
        with open(path, "rb") as file:
            data = _read_all(path, format_, file)
    except OSError as error:
        raise _os_error(path, error) from None
    return _records(path, format_, data)[0]


class Journal:
    """An open, locked journal: ``records`` were there when it was opened;
    ``append`` adds one line; ``appended`` counts the lines added since."""

    def __init__(self, path, file, records, format_):
        self.path = path
        self.records = records
        self.format = format_
        self.appended = 0
        self._file = file
        self._synced = time.monotonic()

    @classmethod
    def open(cls, path, format_):
        """Open (or create) the journal at ``path`` for appending."""
        path = followed(_path(path), format_.kind)
        _check_path(path, format_.kind)
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o666)
        except OSError as error:
            raise _os_error(path, error) from None
        file = os.fdopen(descriptor, "r+b", buffering=0)
        try:
            _lock(path, file)
            with naming(path):
                records = cls._recover(path, format_, file)
        except BaseException:
            file.close()
            raise
        return cls(path, file, records, format_)

    @staticmethod
    def _recover(path, format_, file):
        """Read what the file holds, check it, trim a torn last line and
        write the header to a new file; returns the records."""
        data = _read_all(path, format_, file)
        header = format_.header.encode("utf-8") + b"\n"
        if b"\n" not in data and header.startswith(data):
            # empty, or our own header cut short by a crash
            file.truncate(0)
            file.write(header)
            return []
        records, complete = _records(path, format_, data)
        if len(complete) < len(data):
            file.truncate(len(complete))
        return records

    def append(self, line):
        """Add one record: ``line``, text without a newline, then its checksum."""
        with self._named():
            self._file.write(self.format.line(line).encode("utf-8") + b"\n")
        self.appended += 1
        if time.monotonic() - self._synced > SYNC_SECONDS:
            self._sync()

    def flush(self):
        """Push the appended lines to the file, without fsync, so that a
        reader of its path sees them: the count of what is in the file
        whatever ``appended`` says (an interrupt between a write and its
        count leaves them one apart)."""
        with self._named():
            self._file.flush()

    def _sync(self):
        with self._named():
            self._file.flush()
            os.fsync(self._file.fileno())
        self._synced = time.monotonic()

    def _named(self):
        return naming(self.path)

    def close(self):
        """fsync, then close (which releases the lock). A failure is raised
        once; the file is closed all the same."""
        if not self._file.closed:
            try:
                self._sync()
            finally:
                with contextlib.suppress(OSError):  # the same failure, met again while closing
                    self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _lock(path, file):
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise InvalidArgument(f"{path} is in use by another run; wait for it to finish or give another file") from None
    except OSError as error:
        raise InvalidArgument(f"cannot lock {path}: {error.strerror or error}") from None


LOCK_SUFFIX = ".knight-lock"
_LOCK_TEXT = "knight: held by the count writing {name}; removed when it ends\n"


def _side_lock_path(path):
    """``(path, its lock file's path)``, ``.NAME.knight-lock`` beside it
    (``owned_files.fitted``: cut short with a hash if that is too long); a
    link is followed (``followed``): two names of one file share its lock."""
    path = followed(_path(path), "a checkpoint")
    folder, name = os.path.split(os.path.abspath(path))
    # a name near the system's limit gets a lock named by its hash: the
    # lock must not refuse a name the file itself may have
    return path, os.path.join(folder, owned_files.fitted(f".{name}", LOCK_SUFFIX))


class SideLock:
    """The ``flock`` of a file that is replaced whole (a DP checkpoint:
    renamed over, so a lock on the file itself would stay with the old
    one), held on a lock file beside it, ``.NAME.knight-lock``, that
    knight alone makes and removes: a second run on the same file is
    refused at once, "in use by another run". A kill that runs nothing
    leaves the lock file unlocked (the OS drops the lock): the next run
    takes it over."""

    def __init__(self, path):
        path, self.path = _side_lock_path(path)
        # fsencode: a name the OS gave as bytes that are not UTF-8 is written back as those bytes
        self._text = os.fsencode(_LOCK_TEXT.format(name=os.path.basename(path)))
        self._file = None
        for _ in range(3):  # a lock file removed by its holder as we opened it: open again
            self._file = self._open_locked(path)
            if self._is_the_file_there():
                return
            self._file.close()
        raise InvalidArgument(f"{path} is in use by another run; wait for it to finish or give another file")

    @staticmethod
    def check(path):
        """InvalidArgument if another run holds ``path``'s lock now: for a
        check before the work (and what it prints) begins. Nothing is
        made; the lock itself is taken when the work starts."""
        path, lock_path = _side_lock_path(path)
        try:
            descriptor = os.open(lock_path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            return  # no lock file (or none we may open): nobody holds it, or the work says why
        with os.fdopen(descriptor, "rb") as file:
            _lock(path, file)

    def _open_locked(self, path):
        try:
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        except OSError as error:
            raise InvalidArgument(f"cannot lock {path}: {error.strerror or error} ({self.path})") from None
        file = os.fdopen(descriptor, "r+b", buffering=0)
        try:
            _lock(path, file)
            held = file.read(len(self._text) + 1)
            if held and held != self._text:
                raise InvalidArgument(f"{self.path} is there and is not a lock file of knight's; it is left untouched")
            if not held:
                self._mark(file)
        except BaseException:
            file.close()
            raise
        return file

    def _mark(self, file):
        """Write the lock file's text; a lock file half written (a full disk) is removed."""
        try:
            with naming(self.path):
                file.write(self._text)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            raise

    def _is_the_file_there(self):
        try:
            there = os.lstat(self.path)
        except FileNotFoundError:
            return False
        held = os.fstat(self._file.fileno())
        return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def release(self):
        """Remove the lock file, then let the lock go."""
        if self._file is None or self._file.closed:
            return
        if self._is_the_file_there():
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        self._file.close()
