"""The README's short example runs as written, on the breast cancer data with named labels,
and its expected losses are those of the library called directly."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

from tests.conftest import REPO
from threshold_choice import expected_losses


def test_the_readme_example_runs_and_compares_the_methods():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    code = re.search(r"## A short example.*?```python\n(.*?)```", text, flags=re.S).group(1)
    X_all, y_all = load_breast_cancer(return_X_y=True)
    names = np.array(["malignant", "benign"])[y_all]
    X, X_test, y, y_test = train_test_split(X_all, names, test_size=0.5, random_state=0,
                                            stratify=names)
    statements, call = code.strip().rsplit("\nexpected_losses(", 1)
    namespace = {"X": X, "y": y, "X_new": X_test[:5], "X_test": X_test, "y_test": y_test}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LogisticRegression's convergence on raw features
        exec(statements, namespace)
        frame = eval("expected_losses(" + call, namespace)
    clf = namespace["clf"]
    assert clf.pos_label_ == "malignant" and clf.threshold() < 0.5  # c = 0.2
    assert len(namespace["clf"].predict(X_test[:5])) == 5
    direct = expected_losses(y_test == "malignant", namespace["scores"],
                             train_y=clf.train_labels_, train_s=clf.train_scores_,
                             methods=["train-optimal", "score-driven", "score-fixed"],
                             gammas=[math.inf, 4, 0], settings={"cost_distribution": "beta:4,16"})
    assert frame.equals(direct)
    fixed = frame[frame["method"] == "score-fixed"]["expected_loss"]
    assert np.ptp(fixed) == 0  # one threshold whatever the certainty
