"""The authors' Weka ``Logistic``, from Debian's ``weka`` package (3.6.14-3).

The jar is GPL and is fetched, never shipped: :func:`authors_weka_jar` downloads the package
with Debian's own client (``apt-get download``, which needs no root once apt's package lists
exist; as root it runs ``apt-get update`` first when they do not), checks the ``.deb``
against its pinned SHA-256, reads the jar out of it in Python (a ``.deb`` is an ``ar``
archive holding ``data.tar.xz``) and keeps it in a cache folder, checked against its own
pinned SHA-256 each time it is used. Where the package cannot be had (no ``apt-get``, no
network, another release), a :class:`UserError` says why in one line; the workflow then runs
the bundled Weka 3.9.6 with that warning.

Why this jar: see :mod:`threshold_choice.models.weka_legacy`.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError

__all__ = ["AUTHORS_WEKA", "DebianJar", "authors_weka_jar", "jar_from_deb"]


@dataclass(frozen=True)
class DebianJar:
    """A jar inside a pinned Debian package."""

    package: str
    version: str
    deb_sha256: str
    member: str  # path of the jar inside data.tar.*
    jar_sha256: str

    @property
    def jar_name(self) -> str:
        return Path(self.member).name


#: Debian 12 (bookworm) ``weka_3.6.14-3_all.deb``: Weka 3.6.14, whose Logistic (revision
#: 5523) has the objective of the Weka 3.9.1 the authors ran
AUTHORS_WEKA = DebianJar(
    package="weka",
    version="3.6.14-3",
    deb_sha256="58ea5ec3b42ca9719be5756d1bd64ebed0e69d16d6fffa200b3cebf4ccccab16",
    member="usr/share/java/weka-3.6.14.jar",
    jar_sha256="fcdc5315cb9054b396d2e1bac7e007800b01b3d2221cca6afb065f6821e60b42",
)

_APT_TIMEOUT = 300  # seconds for one apt-get call


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _ar_members(deb: bytes) -> dict[str, bytes]:
    """The members of an ``ar`` archive (the format of a ``.deb``)."""
    if not deb.startswith(b"!<arch>\n"):
        raise UserError("not a Debian package (no ar archive header)")
    members, pos = {}, 8
    while pos + 60 <= len(deb):
        header = deb[pos:pos + 60]
        if header[58:60] != b"`\n":
            raise UserError("not a Debian package (a damaged ar member header)")
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        pos += 60
        members[name] = deb[pos:pos + size]
        pos += size + size % 2  # members start at even offsets
    return members


def jar_from_deb(deb: bytes, member: str) -> bytes:
    """The file ``member`` (e.g. ``usr/share/java/weka-3.6.14.jar``) of the ``.deb`` ``deb``."""
    data = [v for k, v in _ar_members(deb).items() if k.startswith("data.tar")]
    if not data:
        raise UserError("the Debian package holds no data.tar archive")
    with tarfile.open(fileobj=io.BytesIO(data[0])) as tar:
        for entry in tar.getmembers():
            if entry.name.lstrip("./") == member and entry.isfile():
                handle = tar.extractfile(entry)
                if handle is not None:
                    return handle.read()
    raise UserError(f"the Debian package holds no file {member}")


def _apt_get(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["apt-get", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=_APT_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise UserError(f"apt-get {' '.join(args)} took more than {_APT_TIMEOUT} s") from None


def _last_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (proc.stderr + proc.stdout).splitlines()
             if line.strip() and not line.startswith("W:")]
    return lines[-1].strip() if lines else f"exit status {proc.returncode}"


def _download(spec: DebianJar, folder: Path) -> bytes:
    """The ``.deb`` of ``spec``, downloaded by ``apt-get download`` into ``folder``."""
    if shutil.which("apt-get") is None:
        raise UserError("apt-get not found (not a Debian-based system)")
    wanted = f"{spec.package}={spec.version}"
    proc = _apt_get("download", wanted, cwd=folder)
    if proc.returncode != 0 and hasattr(os, "geteuid") and os.geteuid() == 0:
        # apt's package lists may be missing (a fresh container): as root, read them once
        update = _apt_get("update", "-qq", cwd=folder)
        if update.returncode == 0:
            proc = _apt_get("download", wanted, cwd=folder)
    if proc.returncode != 0:
        raise UserError(f"apt-get download {wanted} failed: {_last_line(proc)}")
    debs = sorted(folder.glob(f"{spec.package}_*.deb"))
    if not debs:
        raise UserError(f"apt-get download {wanted} left no .deb file")
    return debs[0].read_bytes()


def authors_weka_jar(cache: Path | str, spec: DebianJar = AUTHORS_WEKA) -> Path:
    """The jar of ``spec`` in ``cache`` (``cache/<jar name>``), downloaded and extracted when
    it is not there yet or no longer matches its pinned SHA-256.

    Raises
    ------
    UserError
        One line saying why the jar cannot be had: no ``apt-get``, the download failed (the
        reason apt gave), a package or jar whose SHA-256 differs from the pinned one.
    """
    cache = Path(cache)
    jar = cache / spec.jar_name
    if jar.is_file() and _sha256(jar.read_bytes()) == spec.jar_sha256:
        return jar
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as tmp:
        deb = _download(spec, Path(tmp))
    if _sha256(deb) != spec.deb_sha256:
        raise UserError(
            f"the downloaded {spec.package} {spec.version} package has SHA-256 "
            f"{_sha256(deb)}, not the pinned {spec.deb_sha256}; not used"
        )
    content = jar_from_deb(deb, spec.member)
    if _sha256(content) != spec.jar_sha256:
        raise UserError(
            f"{spec.member} of {spec.package} {spec.version} has SHA-256 {_sha256(content)}, "
            f"not the pinned {spec.jar_sha256}; not used"
        )
    with atomic_output(jar) as out:
        Path(out).write_bytes(content)
    return jar
