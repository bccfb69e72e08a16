"""Atomic writes leave files with the permissions a plain ``open`` gives (not mkstemp's 0o600)."""

from __future__ import annotations

import os
import stat

import pandas as pd
import pytest

from threshold_choice.atomic import _umask, atomic_output, write_bytes_atomic, write_text_atomic
from threshold_choice.reproduction.tables import write_table


def test_written_tables_have_ordinary_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        paths = write_table(pd.DataFrame({"model": ["J48"], "AUC": [0.8]}), tmp_path / "t",
                            caption="t", marks=None)
    finally:
        os.umask(old)
    for path in paths.values():
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def test_atomic_output_renames_on_success_and_keeps_the_target_on_failure(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    with atomic_output(target) as tmp:
        assert tmp.parent == target.parent and not target.exists()
        tmp.write_text("first")
    assert target.read_text() == "first"
    with pytest.raises(RuntimeError), atomic_output(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "first"  # the old content, untouched
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]


def test_text_and_bytes_writers_round_trip_exactly(tmp_path):
    text = "a,b\r\nü,2\n"  # line endings kept as given, UTF-8
    assert write_text_atomic(tmp_path / "t.csv", text).read_bytes() == text.encode("utf-8")
    data = bytes(range(256))
    assert write_bytes_atomic(tmp_path / "b.bin", data).read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.bin", "t.csv"]


def test_a_rewritten_output_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    path = tmp_path / "private.csv"
    path.write_text("old\n")
    path.chmod(0o600)
    write_text_atomic(path, "new\n")
    assert path.read_text() == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_symlink_planted_at_an_output_is_replaced_not_followed(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("not yours\n")
    target.chmod(0o640)
    link = tmp_path / "out.csv"
    link.symlink_to(target)
    write_text_atomic(link, "table\n")
    assert not link.is_symlink() and link.read_text() == "table\n"
    assert target.read_text() == "not yours\n"
    assert stat.S_IMODE(link.stat().st_mode) == 0o666 & ~_umask()  # not the link target's


def test_datasets_table5_out_is_written_atomically_never_through_a_symlink(tmp_path):
    import subprocess
    import sys

    from tests.conftest import SHARED

    cli = [sys.executable, "-m", "threshold_choice.cli", "datasets"]
    prepared = tmp_path / "prepared"
    subprocess.run([*cli, "prepare", "--name", "haberman", "--out", str(prepared),
                    "--mirror", str(SHARED / "datasets")], check=True, capture_output=True)
    target = tmp_path / "elsewhere.csv"
    target.write_text("not yours\n")
    out = tmp_path / "table5.csv"
    out.symlink_to(target)
    subprocess.run([*cli, "table5", "--prepared", str(prepared), "--out", str(out)],
                   check=True, capture_output=True)
    assert target.read_text() == "not yours\n"
    assert not out.is_symlink() and out.read_text().startswith("number,dataset,")
    out.chmod(0o600)
    subprocess.run([*cli, "table5", "--prepared", str(prepared), "--out", str(out)],
                   check=True, capture_output=True)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
