"""Bounded reads of regular files, for the schemas ecsgen reads and the dumps ecsgen-dump
reads: a device (/dev/zero), a FIFO or a directory is refused up front, never read until
memory runs out or a writer appears, and a file is read to at most `limit` bytes."""

import os
import stat


class NotRegular(OSError):
    """The path is a device, FIFO, socket or directory; str(): what it is."""


class TooLarge(OSError):
    """The file holds more than the limit."""


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_regular(path, limit):
    """The bytes of regular file `path`, at most `limit` of them; NotRegular, TooLarge, or
    the OSError of open/read. O_NONBLOCK: opening a FIFO must not wait for a writer."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(f"not a regular file: it is {_kind(mode)}" if _kind(mode) != "not a regular file"
                             else "not a regular file")
        chunks, size = [], 0
        while size <= limit:  # st_size can lie (a file still being written, /proc): read, bounded
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise TooLarge(f"larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def regular_or_missing(path):
    """None when path is missing or a regular file (after links), else what it is."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _kind(mode)
