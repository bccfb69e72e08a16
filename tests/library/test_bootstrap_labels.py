"""The bootstrap refuses named labels without a positive class by naming ``pos_label=``, the
option it takes, as the scorers and the metrics do."""

from __future__ import annotations

import pytest

from threshold_choice import bootstrap
from threshold_choice.errors import UserError

Y = ["bad", "good", "bad", "good", "good", "bad", "good", "good"]
S = [0.9, 0.3, 0.65, 0.4, 0.6, 0.8, 0.2, 0.1]


@pytest.mark.parametrize("where", ["test", "train"])
def test_named_labels_without_pos_label_are_refused_naming_pos_label(where):
    y01 = [int(label == "bad") for label in Y]
    test_y, train_y = (Y, y01) if where == "test" else (y01, Y)
    with pytest.raises(UserError, match="pass pos_label=") as caught:
        bootstrap(test_y, S, train_y=train_y, train_s=S, methods="score-driven",
                  gammas=1.0, metrics=[], n_boot=5)
    assert f"{where}_y:" in str(caught.value)
