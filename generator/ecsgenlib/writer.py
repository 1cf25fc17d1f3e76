"""Writes outputs atomically, all or none, and not at all when the text is unchanged (no
needless rebuilds)."""

import errno
import os
import tempfile

from . import files


class WriteError(Exception):
    """`path: what is wrong`: an output could not be written; no output was replaced."""

    def __init__(self, path, message):
        super().__init__(f"{path}: {message}")


def write_all(outputs):
    """Writes {path: text}: every changed file goes to a temporary beside its target first,
    and only when all of them are written are they renamed into place, so a failure (a
    read-only directory, a directory where a file should be, a full disk) leaves every
    output as it was. Returns the paths (re)written; raises WriteError."""
    staged = []  # (temp, path)
    made = []  # directories made for the outputs, removed again on failure
    done = False
    try:
        for path in sorted(outputs):
            data = outputs[path].encode("utf-8")
            if _unchanged(path, data):
                continue
            staged.append((_stage(path, data, made), path))
        for temp, path in staged:
            try:
                os.replace(temp, path)
            except OSError as e:  # checked by _stage: only a race with another writer gets here
                raise WriteError(path, f"cannot write: {e.strerror}") from None
        done = True
    finally:
        for temp, _ in staged:
            if os.path.lexists(temp):
                os.unlink(temp)
        for directory in reversed(made if not done else []):
            try:
                os.rmdir(directory)
            except OSError:  # holds an output renamed in before a later rename failed
                pass
    return [path for _, path in staged]


def _unchanged(path, data):
    """Whether regular file path holds data (read to one byte past it at most)."""
    if files.regular_or_missing(path):
        return False
    try:
        return files.read_regular(path, len(data)) == data
    except OSError:
        return False


def _file_mode():
    """0666 less the umask, as open() would create the file (mkstemp makes it 0600)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _stage(path, data, made):
    """A temporary file holding data, in the target's directory (made if missing; callers
    write only valid output, so no stray directories); WriteError when the target cannot
    be replaced by it."""
    if os.path.isdir(path):
        raise WriteError(path, "cannot write: it is a directory")
    kind = files.regular_or_missing(path)
    if kind:  # /dev/stdout, a FIFO: an output is a file renamed into place, not a stream
        raise WriteError(path, f"cannot write: {kind} (outputs are written to a temporary file renamed over "
                               "the path: give a file name)")
    directory = os.path.dirname(path) or "."
    try:
        _make_directories(directory, made)
    except OSError as e:  # e.filename: the part of the path that is a file, or cannot be made
        raise WriteError(path, f"cannot make the directory {e.filename}: {e.strerror}") from None
    try:
        fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    except OSError as e:
        raise WriteError(path, f"cannot write in {directory}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temp, _file_mode())
    except OSError as e:
        os.unlink(temp)
        raise WriteError(path, f"cannot write: {e.strerror}") from None
    return temp


def _make_directories(directory, made):
    """os.makedirs, appending each directory it makes to `made`, outermost first."""
    missing = []
    while directory and not os.path.isdir(directory):
        if os.path.lexists(directory):
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), directory)
        missing.append(directory)
        parent = os.path.dirname(directory)
        directory = parent if parent != directory else ""
    for directory in reversed(missing):
        os.mkdir(directory)
        made.append(directory)
