"""Input files read within a memory bound: a regular file is checked for size before it is
parsed; a pipe (``/dev/stdin``, ``<(command)``, a named FIFO) is read once, up to the same
size, so that a reader that looks at its input twice sees the same bytes; a device
(``/dev/zero``, a terminal) is refused rather than read without end."""

from __future__ import annotations

import os
import select
import stat
from pathlib import Path

from threshold_choice.errors import UserError

__all__ = ["MAX_INPUT_BYTES", "read_special"]

#: the largest input file read (2 GiB: 10^8 lines of label,score; the largest ARFF file of
#: the paper is 0.8 MB)
MAX_INPUT_BYTES = 2 << 30
#: seconds a named FIFO may take before its first byte (or its writer's end)
FIFO_WAIT = 10.0


def read_special(path: Path | str, what: str, max_bytes: int = MAX_INPUT_BYTES) -> bytes | None:
    """None for a regular file of at most ``max_bytes`` (or a path that does not exist or is a
    folder: the caller says so), the bytes of a pipe or socket (read once, at most
    ``max_bytes``); a :class:`UserError` naming ``what`` (e.g. "test file") for a larger file,
    a device, or a FIFO no one writes to within :data:`FIFO_WAIT` seconds."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode):
        return None
    if stat.S_ISREG(info.st_mode):
        if info.st_size > max_bytes:
            raise UserError(f"{what} {path} has {info.st_size} bytes, more than the "
                            f"{max_bytes} read; give a smaller file (a sample of it)")
        return None
    if not (stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode)):
        raise UserError(f"{what} {path} is a device, not a file; give a file, or a pipe "
                        "(/dev/stdin, <(command))")
    # non-blocking open: opening a FIFO no one writes to would wait forever
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        ready, _, _ = select.select([fd], [], [], FIFO_WAIT)
        if not ready:
            raise UserError(f"{what} {path} is a pipe nothing was written to in {FIFO_WAIT:g} "
                            "s; start its writer first, or give a file")
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > max_bytes:
                raise UserError(f"{what} {path} is a pipe of more than {max_bytes} bytes, "
                                "more than is read; give a smaller input")
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)
