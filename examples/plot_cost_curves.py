"""
Cost curves of two models
=========================

The cost lines of a model's test scores and the expected cost curves ``K(c)`` of the
threshold choice methods, for a logistic regression and a shallow tree on the breast cancer
data, with the cost known exactly (``gamma = inf``) and only roughly (``gamma = 4``).
"""

import math

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from threshold_choice import CostCurveDisplay, ThresholdChoiceClassifier

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)
logistic = ThresholdChoiceClassifier(make_pipeline(StandardScaler(), LogisticRegression()))
tree = ThresholdChoiceClassifier(DecisionTreeClassifier(max_depth=3, random_state=0))
logistic.fit(X_train, y_train)
tree.fit(X_train, y_train)

fig, axes = plt.subplots(1, 2, figsize=(13, 4.6), layout="constrained")
methods = ["test-optimal", "train-optimal", "score-driven", "rate-driven"]
for ax, (name, clf) in zip(axes, [("logistic", logistic), ("tree", tree)], strict=True):
    display = CostCurveDisplay.from_estimator(
        clf, X_test, y_test, methods=methods, gammas=[math.inf, 4], name=name, ax=ax
    )
    table = display.areas.pivot(index="method", columns="gamma", values="expected_loss")
    print(f"{name}: expected loss per method and gamma\n{table.round(4)}\n")
