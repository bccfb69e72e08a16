"""Atomic writes leave files with the permissions a plain ``open`` gives (not mkstemp's 0o600)."""

from __future__ import annotations

import os
import stat

import pandas as pd
import pytest

from threshold_choice.atomic import atomic_output, write_bytes_atomic, write_text_atomic
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
