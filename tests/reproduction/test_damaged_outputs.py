"""A damaged output of an earlier job is removed by the step that finds it (every such file is
a target of the run, so the next run makes it again), and the error says to run again."""

from __future__ import annotations

import pytest

from threshold_choice.errors import UserError
from threshold_choice.reproduction.steps import step_collect, step_evaluate


def test_a_damaged_scores_file_is_removed_and_the_error_says_to_run_again(tmp_path):
    scores = tmp_path / "NB.parquet"
    scores.write_bytes(b"PAR1 damaged")
    with pytest.raises(UserError, match=r"is damaged .* run the same command again"):
        step_evaluate([scores], "haberman", tmp_path / "runs.parquet", methods=["score-driven"],
                      gammas=["inf"], settings={})
    assert not scores.exists() and not (tmp_path / "runs.parquet").exists()


def test_a_damaged_runs_file_is_removed_and_the_error_says_to_run_again(tmp_path):
    runs = tmp_path / "haberman.parquet"
    runs.write_bytes(b"")
    with pytest.raises(UserError, match=r"runs file .* is damaged"):
        step_collect([runs], tmp_path / "runs-all.parquet")
    assert not runs.exists()


def test_a_missing_file_is_not_called_damaged(tmp_path):
    with pytest.raises(FileNotFoundError):
        step_collect([tmp_path / "absent.parquet"], tmp_path / "runs-all.parquet")
