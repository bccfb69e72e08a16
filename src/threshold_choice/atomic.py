"""Temporary files for atomic writes (write, then ``os.replace``) with ordinary permissions.

``tempfile.mkstemp`` creates files readable by their owner only (0o600); renamed into place,
results would then be unreadable to the rest of a group on a shared (cluster) filesystem.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

__all__ = ["mkstemp_readable"]


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
