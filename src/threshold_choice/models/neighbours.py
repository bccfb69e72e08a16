"""Weka's ``lazy.IBk`` (the paper's *IBK1* and *IBK10*): k nearest neighbours."""

from __future__ import annotations

from itertools import pairwise
from numbers import Integral
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from threshold_choice._typing import FloatArray
from threshold_choice.models.preprocessing import ClassOrder, WekaLikeClassifier

__all__ = ["WekaIBk", "weka_distances"]

RangeUpdate = Literal["sequential", "training"]


def _running_ranges(train: FloatArray, query: FloatArray,
                    mode: RangeUpdate) -> tuple[FloatArray, FloatArray]:
    """Per query row and attribute, the (min, width) Weka's distance uses for it.

    Weka's ``NormalizableDistance`` starts from the training min/max, and IBk's
    ``distributionForInstance`` calls ``addInstanceInfo`` before each search, which widens the
    ranges with the query's own values; the widening persists for later queries. So with
    ``"sequential"`` the range of query row ``r`` covers the training rows and query rows
    ``0..r``; with ``"training"`` only the training rows. Missing values are skipped.
    """
    with np.errstate(invalid="ignore"):
        lo = np.fmin.reduce(train, axis=0, initial=np.inf)
        hi = np.fmax.reduce(train, axis=0, initial=-np.inf)
    if mode == "sequential" and query.shape[0]:
        lo = np.fmin(lo[None, :], np.fmin.accumulate(query, axis=0))
        hi = np.fmax(hi[None, :], np.fmax.accumulate(query, axis=0))
    else:
        lo = np.broadcast_to(lo, query.shape)
        hi = np.broadcast_to(hi, query.shape)
    width = hi - lo  # +inf - inf etc. only where no value was ever seen: never used then
    return lo, width


def weka_distances(train: FloatArray, query: FloatArray, nominal: NDArray[np.bool_],
                   lo: FloatArray, width: FloatArray) -> FloatArray:
    """Weka's ``EuclideanDistance`` (normalised) between each query row and each training
    row, shape ``(n_query, n_train)``.

    Per attribute, in attribute order, the difference ``d`` is squared and summed, then the
    square root is taken:

    * nominal: ``d = 0`` if both known and equal, else 1 (either missing -> 1);
    * numeric, ``norm(v) = (v - lo) / width`` (0 if ``width == 0``) with the query row's range:
      both known -> ``norm(a) - norm(b)``; both missing -> 1; one missing -> ``x`` or
      ``1 - x``, whichever is >= 0.5, where ``x`` is the normalised known value.
    """
    nq, nt = query.shape[0], train.shape[0]
    acc = np.zeros((nq, nt))
    buffer = np.empty((nq, nt))  # one attribute's differences, reused
    for j in range(train.shape[1]):
        a, b = query[:, j], train[:, j]
        if nominal[j]:
            acc += a[:, None] != b[None, :]  # NaN != anything: a missing side counts 1
            continue
        a_miss, b_miss = np.isnan(a), np.isnan(b)
        a0, b0 = np.where(a_miss, 0.0, a), np.where(b_miss, 0.0, b)
        cols = np.flatnonzero(b_miss)
        # Ranges change only where a query row widens them: handle runs of equal ranges at
        # once, normalising the training column once per run.
        lo_j, w_j = lo[:, j], width[:, j]
        change = np.flatnonzero((lo_j[1:] != lo_j[:-1]) | (w_j[1:] != w_j[:-1])) + 1
        bounds = [0, *change.tolist(), nq]
        for s0, s1 in pairwise(bounds):
            low, w = lo_j[s0], w_j[s0]
            if w > 0:  # same operations as Weka: norm(v) = (v - min) / width, then subtract
                na, nb = (a0[s0:s1] - low) / w, (b0 - low) / w
            else:
                na, nb = np.zeros(s1 - s0), np.zeros(nt)
            diff = np.subtract.outer(na, nb, out=buffer[: s1 - s0])
            # Missing values are rare: fix up only the affected rows and columns.
            rows = np.flatnonzero(a_miss[s0:s1])
            if rows.size:
                diff[rows] = np.where(nb < 0.5, 1.0 - nb, nb)[None, :]
            if cols.size:
                part = np.where(na < 0.5, 1.0 - na, na)[:, None]
                diff[:, cols] = np.where(a_miss[s0:s1, None], 1.0, part)  # both missing: 1
            np.square(diff, out=diff)
            acc[s0:s1] += diff
    return np.sqrt(acc)


class WekaIBk(WekaLikeClassifier):
    """Weka ``weka.classifiers.lazy.IBk`` with ``-K k`` and otherwise default options
    (``LinearNNSearch`` with ``EuclideanDistance``, attributes normalised, no distance
    weighting, no window, no cross-validation of k).

    Distance: :func:`weka_distances`, with each numeric attribute normalised by the ranges of
    the training rows, widened by the query rows predicted so far in the same
    ``predict_proba`` call (``range_update="sequential"``, Weka's behaviour, see
    :func:`_running_ranges`) or by the training rows only (``"training"``). Rows are therefore
    predicted in the order given: pass test rows in the order the original run predicted them.

    Neighbours: the ``k`` nearest training rows plus every row tied (exactly equal distance)
    with the k-th, as ``LinearNNSearch`` keeps them.

    Probabilities (``IBk.makeDistribution``): every class starts at ``1 / n_train`` and each
    neighbour adds 1 to its class; normalised by the total (the additions are done one by one
    in floating point, as Weka does). ``predict`` (the paper's crisp IBK1 score) takes the
    larger one; on a tie of votes (e.g. two equidistant nearest neighbours of different
    classes) it takes, as Weka's ``classifyInstance``, the class declared first in the ARFF
    header, ``class_order[0]``. ``predict_proba`` (IBK10's score) does not depend on
    ``class_order``.

    Differences from Weka: Weka keeps the widened ranges across separate prediction calls
    (the authors predicted the training part, then the test part, with one model object), so
    test rows there were also normalised with ranges widened by training rows that had missing
    values and were left out of fitting; here every call starts again from the fitted ranges.
    Instance weights are not supported.

    Parameters
    ----------
    n_neighbors:
        Weka's ``-K`` (default 1).
    range_update:
        ``"sequential"`` (Weka) or ``"training"``.
    chunk_size:
        Query rows per distance block (memory: ``chunk_size * n_train`` floats a few times;
        the default 64 keeps a block in a core's cache for a few thousand training rows).
    class_order:
        The labels (1 = majority class) in the order the ARFF header declares the class
        values, ``(0, 1)`` or ``(1, 0)``, as for the Weka backend; only ``predict``'s
        tie-breaking depends on it. Default ``(0, 1)`` (ties go to class 0, the minority
        class); the pipeline passes each dataset's own order.

    Invalid parameter values raise scikit-learn's ``InvalidParameterError`` in ``fit`` (and
    when the model registry is loaded).
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "range_update": [StrOptions({"sequential", "training"})],
        "chunk_size": [Interval(Integral, 1, None, closed="left")],
        "class_order": [ClassOrder()],
    }

    def __init__(self, n_neighbors: int = 1, range_update: RangeUpdate = "sequential",
                 chunk_size: int = 64, class_order: tuple[int, int] = (0, 1)) -> None:
        self.n_neighbors = n_neighbors
        self.range_update = range_update
        self.chunk_size = chunk_size
        self.class_order = class_order

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: pd.DataFrame, y: NDArray[np.int64]) -> WekaIBk:
        V, t = self._fit_input(X, y)
        self.train_ = V
        self.y_ = t
        return self

    def predict_proba(self, X: pd.DataFrame) -> FloatArray:
        Q = self._predict_input(X)
        n = self.train_.shape[0]
        lo, width = _running_ranges(self.train_, Q, self.range_update)
        k = min(int(self.n_neighbors), n)
        nominal = self.schema_.nominal
        is1 = self.y_ == 1
        out = np.empty((Q.shape[0], 2))
        start_value = 1.0 / max(1, n)
        for s in range(0, Q.shape[0], int(self.chunk_size)):
            e = min(s + int(self.chunk_size), Q.shape[0])
            with np.errstate(invalid="ignore"):  # inf - inf for never-seen ranges, unused
                dist = weka_distances(self.train_, Q[s:e], nominal, lo[s:e], width[s:e])
            kth = np.partition(dist, k - 1, axis=1)[:, k - 1]
            chosen = dist <= kth[:, None]
            count1 = (chosen & is1[None, :]).sum(axis=1)
            count = chosen.sum(axis=1)
            # Weka adds 1.0 per neighbour to a start of 1/n: repeat the additions one by one.
            d1 = np.full(e - s, start_value)
            d0 = np.full(e - s, start_value)
            total = np.full(e - s, 2.0 / max(1, n))  # m_NumClasses / n, as Weka
            for i in range(int(count.max(initial=0))):
                d1 = np.where(i < count1, d1 + 1.0, d1)
                d0 = np.where(i < count - count1, d0 + 1.0, d0)
                total = np.where(i < count, total + 1.0, total)
            out[s:e, 0] = d0 / total
            out[s:e, 1] = d1 / total
        return out
