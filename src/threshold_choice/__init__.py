"""Threshold choice methods under operating-condition uncertainty.

Conventions used throughout the package
---------------------------------------
* Labels are in {0, 1}; class 1 is the class whose probability the score estimates
  (in the paper's experiments: the majority class of the dataset).
* A threshold ``t`` predicts class 1 iff ``score > t`` (strict) and class 0 otherwise.
* ``c`` is the cost proportion (cost of misclassifying a class-0 example, normalised so
  that the two costs sum to b = 2). The loss of threshold ``t`` at ``c`` is
  ``Q(t; c) = 2 * (c * pi0 * FP0(t) + (1 - c) * pi1 * FN1(t))`` with the class
  proportions of the evaluation (test) set.
"""

__version__ = "0.1.0"
