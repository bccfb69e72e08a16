"""
Three models on one figure
==========================

A logistic regression, a histogram gradient boosting and an isotonic-calibrated random
forest on the breast cancer data, 'malignant' the positive class and a missed malignant
tumour costing 5 times a false alarm (``Costs(1, 5)``: the cost proportion ``c = 1/6``),
side by side in a 2 x 2 grid of a paper's figure: ROC space with each model's optimal point
at those costs, the expected cost curves of the methods, the expected loss against the
certainty about ``c``, and the decision curves.

One encoding across the Displays: colour = model, line style = method, shade = certainty
(lighter for less certain); the legend gives each model, method and certainty once, where it
covers no data.
"""

import math

import matplotlib.pyplot as plt
import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from threshold_choice import (
    CertaintyDisplay,
    CostCurveDisplay,
    Costs,
    DecisionCurveDisplay,
    ROCDisplay,
)

X, y = load_breast_cancer(return_X_y=True)
y = np.array(["malignant", "benign"])[y]  # scikit-learn's 0 is malignant
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)
models = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "HGB": HistGradientBoostingClassifier(random_state=0),
    "RF isotonic": CalibratedClassifierCV(
        RandomForestClassifier(random_state=0), method="isotonic"
    ),
}
for model in models.values():
    model.fit(X_train, y_train)
costs = Costs(false_positive=1, false_negative=5, pos_label="malignant")

fig, axes = plt.subplots(2, 2, figsize=(12, 9), layout="constrained")
shared = {"X_train": X_train, "y_train": y_train, "costs": costs}
for name, model in models.items():
    ROCDisplay.from_estimator(model, X_test, y_test, name=name, ax=axes[0, 0],
                              costs=costs)
    curves = CostCurveDisplay.from_estimator(
        model, X_test, y_test, name=name, ax=axes[0, 1], gammas=[math.inf, 4], **shared
    )
    CertaintyDisplay.from_estimator(
        model, X_test, y_test, name=name, ax=axes[1, 0], pos_label="malignant",
        X_train=X_train, y_train=y_train, gammas=[math.inf, 256, 64, 16, 4, 1, 0.25, 0],
        refine=2,
    )
    DecisionCurveDisplay.from_estimator(model, X_test, y_test, name=name, ax=axes[1, 1],
                                        costs=costs)
    table = curves.areas.pivot(index="method", columns="gamma", values="expected_loss")
    print(f"{name}: expected loss per method and certainty\n{table.round(4)}\n")
