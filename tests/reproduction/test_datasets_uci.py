"""The UCI path: plain HTTP against a local server on 127.0.0.1, files shaped like UCI's."""

from __future__ import annotations

import http.server
import io
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from tests.conftest import SHARED
from threshold_choice.datasets import load_prepared, load_registry, prepare_dataset
from threshold_choice.datasets.arff import read_arff
from threshold_choice.datasets.errors import SourceUnavailableError
from threshold_choice.datasets.fetch import download, uncompress_z

MIRROR = SHARED / "datasets"


def lzw_compress(data: bytes) -> bytes:
    """``data`` in the Unix compress (.Z) format, UCI's, by ``ncompress`` (a C port of
    compress) in a fresh interpreter: in a process where the JVM runs (started by the Weka
    tests before these), ``ncompress.compress`` dies of a segmentation fault (seen with
    ``ensure_jvm()`` then one call), which took the whole test run with it."""
    code = ("import sys, ncompress; "
            "sys.stdout.buffer.write(ncompress.compress(sys.stdin.buffer.read()))")
    return subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                          check=True).stdout


class Server:
    """Serves ``files`` (path -> bytes); ``fail_first`` paths answer 503 once."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.fail_first: set[str] = set()
        self.requests: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # name fixed by http.server
                outer.requests.append(self.path)
                if self.path in outer.fail_first:
                    outer.fail_first.discard(self.path)
                    self.send_error(503)
                elif self.path in outer.files:
                    body = outer.files[self.path]
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    self.send_error(404)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


def _with_url(name: str, url: str):
    registry = load_registry()
    spec = registry[name]
    registry[name] = replace(spec, source=replace(spec.source, url=url))
    return registry


def _onehr_text() -> bytes:
    """ozone's paper file written as UCI's onehr.data: a Date first, class as '0.'/'1.'."""
    _, paper = read_arff(MIRROR / "ozone.arff")
    cols = [[f"1/{i % 28 + 1}/1998" for i in range(paper.n_rows)]]
    for col in paper.columns[:-1]:
        cols.append(["?" if np.isnan(v) else str(float(v)) for v in col.values])
    cols.append([f"{lab}." for lab in paper.column("class").labels()])
    return ("\n".join(",".join(r) for r in zip(*cols, strict=True)) + "\n").encode()


def test_ozone_downloaded_over_http_reproduces_the_papers_table(tmp_path, server):
    server.files["/ozone/onehr.data"] = _onehr_text()
    server.fail_first.add("/ozone/onehr.data")  # one transient 503: retried
    registry = _with_url("ozone", server.url + "/ozone/onehr.data")
    path = prepare_dataset("ozone", out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                           mirror=None, registry=registry, retries=2, backoff=0.0)
    ds = load_prepared(path)
    assert ds.meta["content_sha256"] == registry["ozone"].content_sha256
    assert ds.meta["source"]["kind"] == "uci"
    assert server.requests == ["/ozone/onehr.data"] * 2
    # the cached download is reused: no further request
    prepare_dataset("ozone", out_dir=tmp_path / "out2", cache_dir=tmp_path / "cache",
                    mirror=None, registry=registry)
    assert len(server.requests) == 2


def test_musk1_from_the_uci_archive_drops_conformation_name(tmp_path, server):
    _, paper = read_arff(MIRROR / "musk1.arff")
    mol = paper.column("molecule_name").labels()
    rows = [[m, f"{m}_conf{i}"] + [str(float(paper.columns[j].values[i])) for j in range(1, 167)]
            + [f"{paper.column('class').labels()[i]}."] for i, m in enumerate(mol)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:  # UCI's layout: LZW-compressed data, notes
        text = ("\n".join(",".join(r) for r in rows) + "\n").encode()
        archive.writestr("clean1.data.Z", lzw_compress(text))
        archive.writestr("clean1.info", "notes")
    server.files["/musk.zip"] = buf.getvalue()
    registry = _with_url("musk1", server.url + "/musk.zip")
    path = prepare_dataset("musk1", out_dir=tmp_path, cache_dir=tmp_path / "cache", mirror=None,
                           registry=registry)
    assert load_prepared(path).meta["content_sha256"] == registry["musk1"].content_sha256


def test_unreachable_uci_host_names_dataset_url_and_fix(tmp_path, server):
    url = server.url + "/ozone/onehr.data"
    server.httpd.shutdown()
    server.httpd.server_close()  # nothing listens on the port any more
    registry = _with_url("ozone", url)
    with pytest.raises(SourceUnavailableError,
                       match=rf"ozone: cannot download UCI file {url} after 2 tries.*--mirror"):
        prepare_dataset("ozone", out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                        mirror=None, registry=registry, retries=2, backoff=0.0)
    assert not (tmp_path / "out").exists()
    assert not any((tmp_path / "cache").rglob("*.data*"))


def test_missing_file_is_not_retried(tmp_path, server):
    with pytest.raises(Exception, match="404"):
        download(server.url + "/absent", tmp_path / "absent", retries=3, backoff=0.0)
    assert server.requests == ["/absent"]
    assert list(tmp_path.iterdir()) == []


def test_corrupt_cached_archive_is_reported_and_deleted(tmp_path, server):
    server.files["/musk.zip"] = b"<html>temporarily unavailable</html>"
    registry = _with_url("musk1", server.url + "/musk.zip")
    with pytest.raises(SourceUnavailableError, match=r"musk1: the download of .* not a valid "
                       r"zip archive.*was deleted"):
        prepare_dataset("musk1", out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                        mirror=None, registry=registry)
    assert not any((tmp_path / "cache").rglob("*.zip"))
    assert not (tmp_path / "out").exists()


def test_archive_without_the_registered_member_names_what_it_has(tmp_path, server):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("clean2.data.Z", lzw_compress(b"x"))
    server.files["/musk.zip"] = buf.getvalue()
    registry = _with_url("musk1", server.url + "/musk.zip")
    with pytest.raises(SourceUnavailableError, match=r"lacks 'clean1.data.Z'.*clean2.data.Z"):
        prepare_dataset("musk1", out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                        mirror=None, registry=registry)


def test_uncompress_z_round_trips_the_unix_compress_format_and_passes_plain_bytes():
    text = b"".join(b"%d,MUSK-%d,%f\n" % (i, i % 7, i / 3) for i in range(20000))
    packed = lzw_compress(text)  # large enough for 16-bit codes and table resets
    assert packed[:2] == b"\x1f\x9d" and len(packed) < len(text)
    assert uncompress_z(packed) == text
    assert uncompress_z(text) == text
    with pytest.raises(ValueError, match="corrupt"):
        uncompress_z(packed[: len(packed) // 2] + b"\xff" * 7)
