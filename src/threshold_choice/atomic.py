"""Atomic writes: every file the package writes goes through a temporary file beside its
target and a rename (``os.replace``), so that a reader, a concurrent job or an interrupted
workflow never sees a half-written file.

The temporary files get ordinary permissions: ``tempfile.mkstemp`` creates files readable by
their owner only (0o600); renamed into place, results would then be unreadable to the rest of
a group on a shared (cluster) filesystem. A file that is replaced keeps its mode (a results
file made private stays private). The rename replaces the name itself: a symbolic link planted
at the target is replaced by the file, its own target left untouched.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["TEMPORARY_NAME", "atomic_output", "mkstemp_readable", "write_bytes_atomic",
           "write_text_atomic"]

#: the name of :func:`atomic_output`'s temporary file: ``.<target name>.<random>.tmp``; one is
#: left behind only when the process is killed outright (SIGKILL, a node lost) mid-write
TEMPORARY_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def mkstemp_readable(**kwargs: Any) -> tuple[int, str]:
    """:func:`tempfile.mkstemp`, but the file gets the mode a plain ``open`` would give it
    (``0o666`` minus the umask)."""
    fd, path = tempfile.mkstemp(**kwargs)
    os.fchmod(fd, 0o666 & ~_umask())
    return fd, path


@contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """Yield an empty temporary file beside ``path`` (its folder is created) to write to by
    name; on a normal exit it is renamed over ``path`` (with the mode of the file it replaces;
    a symbolic link at ``path`` is replaced, never followed), on an exception removed
    (``path`` is then left as it was)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where a folder is needed: say so, not "File exists"
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR),
                                 str(path.parent)) from None
    try:
        fd, name = mkstemp_readable(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:  # named by the file asked for, not the temporary one
        raise _naming(exc, path) from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        try:
            _keep_mode(path, tmp)
            os.replace(tmp, path)
        except OSError as exc:  # e.g. ``path`` is a folder
            raise _naming(exc, path) from None
    finally:
        tmp.unlink(missing_ok=True)


def _keep_mode(path: Path, tmp: Path) -> None:
    """Give ``tmp`` the mode of the regular file ``path`` it replaces (not of a link's
    target: a link is replaced, not followed)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(info.st_mode):
        os.chmod(tmp, stat.S_IMODE(info.st_mode))


def _naming(exc: OSError, path: Path) -> OSError:
    """``exc`` with ``path`` as its file name (the user's path, not the temporary file)."""
    return type(exc)(exc.errno, exc.strerror, str(path))


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` (UTF-8, line endings as given) atomically; return ``path``."""
    with atomic_output(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    return Path(path)


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; return ``path``."""
    with atomic_output(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)
