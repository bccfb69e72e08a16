"""``threshold-choice plot``'s --seed: it seeds the montecarlo draws of the curves (as in
``loss``), not only the bootstrap."""

from __future__ import annotations

import pandas as pd

from tests.conftest import random_scores
from threshold_choice.cli import main


def test_plot_seed_seeds_the_montecarlo_curves(tmp_path, capsys):
    y, s = random_scores(8, 60)
    test = tmp_path / "t.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(test, index=False)

    def curves(seed: int, name: str) -> pd.DataFrame:
        out = tmp_path / f"{name}.png"
        assert main(["plot", "certainty", "--test", str(test), "--method", "score-driven",
                     "--estimator", "montecarlo", "--seed", str(seed), "--out", str(out)]) == 0
        return pd.read_csv(out.with_suffix(".csv"))

    first, again, other = curves(3, "a"), curves(3, "b"), curves(4, "c")
    pd.testing.assert_frame_equal(first, again)
    assert not first["y"].equals(other["y"])
    capsys.readouterr()
