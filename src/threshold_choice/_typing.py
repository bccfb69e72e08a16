"""The array type aliases used across the package (one definition, imported everywhere)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["BoolArray", "FloatArray", "IntArray"]

#: an array of float64 values (scores, costs, losses, thresholds)
FloatArray = NDArray[np.float64]
#: an array of platform integers (row indices)
IntArray = NDArray[np.intp]
#: a boolean mask
BoolArray = NDArray[np.bool_]
