"""
The implicit weights of the scoring rules
=========================================

Paper ``002``'s Figs 2 and 3: the Brier score, the H-measure, the log loss and accuracy each
average the regret over the cost proportion ``c`` with a weight of their own, a belief about
``c``. On ``c`` itself (left) the Brier score's weight is flat and the log loss's peaks at
both ends; on the log-odds ``log(c / (1 - c))`` (right) the Brier score's is the logistic
density, unimodal at 1:1, Hand's ``Beta(2, 2)`` concentrates it further, Zhu et al.'s
``Beta(2, 8)`` moves it off 1:1 (its mode is ``c = 1/8`` on ``c`` but ``c = 1/5`` on the
log-odds: the mode is not invariant, as the paper notes), and the log loss's is flat.
Accuracy's is a point mass at ``c = 1/2``.
"""

import matplotlib.pyplot as plt

from threshold_choice import cost_weight_density
from threshold_choice.plotting import CostWeightDisplay

beliefs = ["uniform", "beta:2,2", "beta:2,8", "logit-uniform:0.001,0.999", "accuracy"]
names = ["Brier score (uniform)", "H-measure (beta:2,2)", "Zhu et al. (beta:2,8)",
         "log loss (logit-uniform:0.001,0.999)", "accuracy (point mass at c = 1/2)"]

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
CostWeightDisplay.from_distributions(beliefs, scale="cost", names=names, ax=left,
                                     plot_kwargs={"title": "(A) on the cost proportion c"})
CostWeightDisplay.from_distributions(beliefs, scale="log-odds", names=names, ax=right,
                                     plot_kwargs={"title": "(B) on its log-odds"})
left.get_legend().remove()  # the same lines: one legend, on the right

print("weight on log-odds 0 (1:1):",
      {spec: round(float(cost_weight_density(spec, 0.0, "log-odds")), 4)
       for spec in beliefs[:4]})
