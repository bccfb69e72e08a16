"""
Expected loss against certainty
===============================

How much does each method lose as the presumed cost ``c_hat`` becomes less certain? The
:class:`~threshold_choice.CertaintyDisplay` draws each method's expected loss against the
certainty ``gamma`` (on the axis ``1 / (1 + gamma)``: exact cost on the left, no information
on the right) and marks where the best method changes.
"""

import math

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from threshold_choice import CertaintyDisplay, ThresholdChoiceClassifier

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)
clf = ThresholdChoiceClassifier(make_pipeline(StandardScaler(), LogisticRegression()))
clf.fit(X_train, y_train)

display = CertaintyDisplay.from_estimator(
    clf, X_test, y_test,
    methods=["train-optimal", "score-driven", "rate-driven"],
    gammas=[math.inf, 16, 4, 1, 0], refine=3, name="logistic",
)
print(display.switches)
