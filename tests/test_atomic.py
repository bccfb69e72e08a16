"""Atomic writes leave files with the permissions a plain ``open`` gives (not mkstemp's 0o600)."""

from __future__ import annotations

import os
import stat

import pandas as pd

from threshold_choice.tables import write_table


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
