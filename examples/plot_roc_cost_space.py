"""
ROC space beside cost space
===========================

The same model in the two spaces of the papers: on the left its ROC curve, the convex hull
and, at the cost proportions ``c = 0.2`` and ``0.7``, the hull vertex of least loss with its
iso-cost line; on the right the cost curves of the optimal threshold (the hull's lines), of
score-driven (the Brier curve) and of rate-driven (the ROC cost curve).
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from threshold_choice import BrierCurveDisplay, ROCDisplay

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)
model = GaussianNB().fit(X_train, y_train)
scores = model.predict_proba(X_test)[:, 1]

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6), layout="constrained")
roc = ROCDisplay.from_predictions(y_test, scores, cost_proportions=[0.2, 0.7], name="naive Bayes",
                                  ax=left)
BrierCurveDisplay.from_predictions(y_test, scores, name="naive Bayes", ax=right)
print(f"AUC {roc.auc:.4f}, area under the convex hull {roc.auch:.4f}")
print(roc.optimal.round(4))
