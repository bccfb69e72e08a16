"""
Decision curves
===============

Net benefit ``TP/n - FP/n * t/(1 - t)`` against the threshold probability ``t``, with
treat-all and treat-none, for two models of the probability of a malignant tumour (the
event, so ``pos_label=0`` on this data). The dotted curve is score-driven when ``t`` is known
only roughly (``gamma = 4``); the legend gives each model's exact average net benefit over
``t`` in [0.05, 0.3].
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from threshold_choice import DecisionCurveDisplay

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)
logistic = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X_train, y_train)

thresholds = np.linspace(0.0, 0.9, 91)
fig, ax = plt.subplots(figsize=(8, 4.6))
first = DecisionCurveDisplay.from_estimator(
    logistic, X_test, y_test, pos_label=0, name="logistic", ax=ax, thresholds=thresholds,
    methods=["score-driven"], gammas=[4], average=(0.05, 0.3),
)
DecisionCurveDisplay.from_estimator(
    tree, X_test, y_test, pos_label=0, name="tree", ax=ax, thresholds=thresholds,
    average=(0.05, 0.3), plot_kwargs={"color": "C1"},
)
print(first.averages.round(4))
