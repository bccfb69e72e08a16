"""Weka 3.6's ``IBk`` predictions for a whole test set in one Java call.

Why: Weka's ``LinearNNSearch`` computes each distance through ``NormalizableDistance``, a few
virtual calls per attribute and pair of rows; with the authors' Weka 3.6.14 the paper's IBK1
and IBK10 spent about 35 of the default run's 46 CPU-s of predicting there. The class
``threshold_choice.NearestNeighbours`` (``java/NearestNeighbours.java``, compiled into
``java/classes``) does the same arithmetic on plain arrays: in a score job, less than half
the bundled Weka's CPU (``benchmarks/bench_weka_predict.py``, docs/benchmarks.md).

What is the same as Weka's ``IBk.distributionForInstance``, row by row in order:

* before each row's search the distance function's ranges are widened by the row
  (``addInstanceInfo``), in Weka's own ranges array, so the model's state after the call (and
  every later call on it) is Weka's;
* each distance is ``NormalizableDistance``'s sum of squared attribute differences, in
  attribute order, with Weka's normalisation and its rules for missing values;
* the neighbours are the ``k`` nearest rows and every row tied with the k-th, kept by
  ``LinearNNSearch``'s heap with ``MyHeap``'s own operations (so that a NaN distance, from
  an infinite value or a range too wide for a double, goes where Weka puts it);
* ``makeDistribution``: ``1/n`` per class plus 1 per neighbour, added one by one, over the
  total.

It is used only for an ``IBk`` whose options are Weka's defaults but ``-K`` (at least 1; the
paper's two), with a nominal class and training instances of weight 1 (as this package builds
them), on instances of the training header that are not the model's own training instances
(Weka leaves a row out of its own search: leave-one-out); otherwise :func:`distributions`
returns None and the caller runs Weka's own ``distributionForInstance``. The test suite checks
every probability bit for bit against Weka's own on data with missing values, nominal
attributes, ties, infinite and overflowing values and ranges widened by the test rows, across
successive calls on one model.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from threshold_choice._typing import FloatArray

__all__ = ["CLASSES", "SOURCE", "distributions", "eligible"]

_HERE = Path(__file__).resolve().parent / "java"
#: the kernel's source, and the folder of its compiled class (``javac --release 11 -g:none -d
#: java/classes java/NearestNeighbours.java``, run in this folder)
SOURCE = _HERE / "NearestNeighbours.java"
CLASSES = _HERE / "classes"
_KERNEL = "threshold_choice.NearestNeighbours"
_IBK = "weka.classifiers.lazy.IBk"
_SEARCH = "weka.core.neighboursearch.LinearNNSearch"
_DISTANCE = "weka.core.EuclideanDistance"


@functools.cache  # one class loader per process
def _kernel() -> Any:
    import jpype

    url = jpype.JClass("java.io.File")(str(CLASSES)).toURI().toURL()
    loader = jpype.JClass("java.net.URLClassLoader")(
        jpype.JArray(jpype.JClass("java.net.URL"))([url]),
        jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader())
    return jpype.JClass(_KERNEL, loader=loader)


def _default_options(legacy: Any, k: int) -> list[str]:
    fresh = legacy.jclass(_IBK)()
    fresh.setKNN(k)
    return [str(option) for option in fresh.getOptions()]


def eligible(legacy: Any, classifier: Any) -> bool:
    """Whether ``classifier`` is an ``IBk`` of ``legacy``'s jar that :func:`distributions`
    computes as Weka does: Weka's default options but ``-K``, a built model with training
    rows, a nominal class."""
    if str(classifier.getClass().getName()) != _IBK:
        return False
    search = classifier.getNearestNeighbourSearchAlgorithm()
    if (str(search.getClass().getName()) != _SEARCH
            or str(search.getDistanceFunction().getClass().getName()) != _DISTANCE):
        return False
    k = int(classifier.getKNN())
    if k < 1:  # Weka fails on its empty heap: let it say so
        return False
    options = [str(option) for option in classifier.getOptions()]
    if options != _default_options(legacy, k):
        return False
    train = search.getInstances()
    return (train is not None and int(train.numInstances()) > 0
            and bool(train.classAttribute().isNominal()))


def distributions(legacy: Any, classifier: Any, data: Any) -> FloatArray | None:
    """``distributionForInstance`` of every instance of ``data``, in order, ``(n, classes)``
    (widening the model's ranges as Weka does), or None when ``classifier`` is not an ``IBk``
    this computes exactly (:func:`eligible`), ``data`` has another header than the training
    instances or is those instances themselves, or a training instance weighs other than 1."""
    import jpype

    if not eligible(legacy, classifier):
        return None
    search = classifier.getNearestNeighbourSearchAlgorithm()
    train = search.getInstances()
    if (not bool(train.equalHeaders(data)) or data.equals(train)
            or not np.all(legacy.weights(train) == 1.0)):
        return None
    n_attributes = int(train.numAttributes())
    class_index = int(train.classIndex())
    classes = int(train.numClasses())
    rows = legacy.values(train)
    train_class = rows.reshape(-1, n_attributes)[:, class_index].astype(np.int32)
    types = np.array([int(train.attribute(j).type()) for j in range(n_attributes)],
                     dtype=np.int32)
    queries = legacy.values(data)
    out = _kernel().distributions(
        jpype.JArray(jpype.JDouble)(rows), jpype.JArray(jpype.JInt)(train_class),
        jpype.JArray(jpype.JInt)(types), class_index,
        search.getDistanceFunction().getRanges(),  # Weka's own array: widened in place
        jpype.JArray(jpype.JDouble)(queries), int(classifier.getKNN()), classes)
    return np.asarray(out, dtype=np.float64).reshape(-1, classes)
