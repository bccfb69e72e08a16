"""
The F-measure context
=====================

When the F-measure is the measure of success, its positive class is class 0 (low scores) and
the cost of a threshold at ``c`` is ``2FQ/(1 - FQ)``, linear in ``c``. On the left, the FROC
curve (``FP/TP`` against ``FN/TP``), its convex hull, F-measure isometrics and the F-optimal
point at ``c = 0.5``; on the right, the F-cost lines and the expected F-cost curves of the
methods with the cost known exactly and roughly.
"""

import math

import matplotlib.pyplot as plt
import numpy as np

from threshold_choice import FCostDisplay, FROCDisplay

rng = np.random.default_rng(0)
y = (rng.random(400) < 0.7).astype(int)  # class 0, the F-measure's positive class, is rarer
scores = np.clip(0.45 * y + 0.55 * rng.random(400), 0, 1).round(2)
train_y = (rng.random(400) < 0.7).astype(int)
train_s = np.clip(0.45 * train_y + 0.55 * rng.random(400), 0, 1).round(2)

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6), layout="constrained")
FROCDisplay.from_predictions(y, scores, cost_proportions=[0.5], name="model", ax=left)
f_cost = FCostDisplay.from_predictions(
    y, scores, train_y=train_y, train_score=train_s,
    methods=["test-optimal", "train-optimal"], gammas=[math.inf, 4], name="model", ax=right,
)
print(f_cost.areas.round(4))
