"""
Calibration and refinement on a log-odds axis
=============================================

Paper ``002``'s log-loss plot (its Figs 5 and 7) on Assel et al.'s patients (prevalence 20%):
a binary test of sensitivity 50% and specificity 95%, scored by its predictive values, against
a continuous marker's risk model that underestimates the risk. Each model's regret
``c FP/n + (1 - c) FN/n`` is drawn against ``logit(c)`` with that of its isotonic (PAV)
recalibration (dashed): the area under the solid curve is the log loss, under the dashed one
the refinement, between them the calibration loss. The continuous model has the higher AUC,
yet it loses on refinement as well as on calibration.

The second figure is the binary test's decision curve against ``ln t`` (paper 002, Thm C.4):
the shaded area between the prevalence and the curve over ``[0.05, 0.2]`` is the bounded log
loss over that range.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.special import expit

from threshold_choice import DecisionCurveDisplay, LogOddsRegretDisplay, log_loss_decomposition

rng = np.random.default_rng(0)
n = 20_000
y = (rng.random(n) < 0.2).astype(int)
positive = np.where(y == 1, rng.random(n) < 0.5, rng.random(n) > 0.95)
binary = np.where(positive, y[positive].mean(), y[~positive].mean())
continuous = expit(-0.9 + rng.normal(size=n) + 0.95 * y - 3.04)

fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
LogOddsRegretDisplay.from_predictions(y, binary, name="binary test", ax=ax)
LogOddsRegretDisplay.from_predictions(y, continuous, name="continuous model", ax=ax)
for name, scores in (("binary test", binary), ("continuous model", continuous)):
    parts = log_loss_decomposition(y, scores)
    print(f"{name}: log loss {parts.loss:.4f} = calibration {parts.calibration:.4f} "
          f"+ refinement {parts.refinement:.4f}")

display = DecisionCurveDisplay.from_predictions(
    y, binary, name="binary test", scale="log", average=(0.05, 0.2),
    thresholds=np.linspace(0.01, 0.9, 90),
)
print(display.averages.round(4))
