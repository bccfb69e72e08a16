"""Real Weka learners (``weka.jar``) as scikit-learn classifiers, through python-weka-wrapper3.

The other modules of :mod:`threshold_choice.models` reimplement the paper's Weka learners in
numpy; this backend runs Weka itself, the way the authors ran it through RWeka, so that the
reimplementations can be checked against it and the paper's runs repeated with the original
learners. What it needs (python-weka-wrapper3, a Java runtime), another Weka version and the
JVM's start and options are in :mod:`threshold_choice.models.jvm`.

One JVM per process
-------------------
JPype cannot start a JVM again in a process where one was shut down, so this module never
stops it (do not call ``weka.core.jvm.stop()``). The JVM is not fork-safe: run parallel work
in separate processes (spawned, or Snakemake jobs) that each start their own JVM, and do not
start it in a parent process before forking workers. Fitted estimators pickle (the Weka model
is stored with Java serialization) and can be loaded in another process.

How the data reach Weka (as RWeka 0.4 did)
------------------------------------------
RWeka's formula interface builds a model frame (response first; training rows with any
missing value removed by R's default ``na.omit``) and copies it into ``weka.core.Instances``
attribute by attribute (``read_data_into_Weka``): a factor becomes a nominal attribute whose
values are its levels in order (for data read with ``read.arff``: the ARFF header order), a
numeric column a numeric attribute, NA becomes Weka's missing value; the class attribute is
the **first** attribute (class index 0). Prediction builds instances with the same header and
a missing class, keeping rows with missing values (``na.action`` of the call, ``NULL``), and
calls ``distributionForInstance`` (``type = "probability"``) or ``classifyInstance``
(``type = "class"``) row by row, in order, on the one fitted model object.

Here: ``X`` is a DataFrame (nominal features ``Categorical`` with their categories in the
declared order, numeric features float64, NaN / missing category for a missing value), ``y``
ints in {0, 1} with 1 = the majority class. The Instances have the class attribute first
(nominal, two values), then the features in the frame's order; nominal features keep their
declared category order, numeric ones are numeric. With ``drop_missing_train=True`` (default)
training rows with any missing feature are left out before fitting (R's ``na.omit``); rows to
predict keep their missing values. Probabilities come from Weka's
``distributionsForInstances`` (for all the paper's learners this is
``AbstractClassifier``'s loop over ``distributionForInstance``, as RWeka's loop), predicted
classes from ``classifyInstance``.

Checked: for the 10 configurations of :data:`PAPER_WEKA_MODELS` on half splits of
credit-a, hepatitis, breast-cancer and vote (missing values in training and test rows), the
probabilities (crisp classes for IBK1 and SVM) equal exactly those of the same Weka reading
the ARFF file itself with its ``DataSource``, class moved first, training rows with missing
values removed.

Class values and the score
--------------------------
The authors' score is the column of the majority class in
``predict(model, newdata, type = "probability")``, whose columns follow the class factor's
levels, i.e. the ARFF declared order of the class values. The order of the class values
matters to Weka only through tie-breaking (``classifyInstance`` takes the first class on a
tie of probabilities, e.g. a 1-NN with two equidistant neighbours of different classes, or
an empty J48 leaf). ``class_order`` gives the project labels in the declared order:
``(0, 1)`` (default) when the minority class is declared first, ``(1, 0)`` when the majority
class is. Whatever the order, ``predict_proba(X)[:, 1]`` is Weka's probability of the
majority label (class 1) and ``classes_ == [0, 1]``.

Crisp scores (``crisp=True``, the paper's IBK1 and SVM): ``predict_proba`` returns 1.0 for
class 1 where Weka's ``classifyInstance`` predicts the majority label, else 0.0 (also when
Weka returns a missing prediction, an all-zero distribution).

Differences from RWeka
----------------------
* Weka 3.9.6 by default instead of the authors' 3.9.1: ``Logistic`` (so also ``SMO -M``'s
  calibration) differs on near-separable data. A Weka 3.6-API jar given to :func:`ensure_jvm`
  (Debian's 3.6.14, whose ``Logistic`` is the authors': the workflow's default) runs in a
  class loader of its own (:mod:`.weka_legacy`); see ``docs/weka.md``.
* RWeka also classified the training instances right after ``buildClassifier`` (to store
  fitted classes); this is not repeated. For all the paper's learners prediction has no side
  effects except IBk, which widens its attribute ranges (used for distance normalisation)
  with every instance it predicts; training instances lie within the ranges already, so the
  model's state is the same.
* IBk's range widening is Weka's behaviour here too: predictions depend on earlier
  prediction calls on the same fitted object (the authors predicted the whole training part,
  then the test part). Call in that order to reproduce them. ``predict`` and
  ``predict_proba`` both count as calls.
* Attribute names and the relation name are cosmetic (the class attribute is named
  ``class``, or ``class_`` etc. if a feature already has that name).
* Boolean feature columns are numeric 0/1 here; RWeka turned R logicals into nominal
  ``FALSE``/``TRUE`` attributes (the paper's ARFF data have no logical columns).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from threshold_choice._typing import FloatArray
from threshold_choice.errors import UserError

# the JVM's lifecycle lives in .jvm; its public names stay importable from here
from threshold_choice.models.jvm import (
    WEKA_JAR_ENV,
    WEKA_WRAPPER_REQUIREMENT,
    _import_wrapper,
    _jclass,
    check_weka_jar,
    ensure_jvm,
    java_version,
    legacy_weka_jar,
    weka_jar_in_use,
    weka_version,
)
from threshold_choice.models.preprocessing import (
    FrameSchema,
    check_binary_target,
    check_same_schema,
    frame_schema,
    frame_to_matrix,
)
from threshold_choice.models.weka_java import build_header, configured_classifier

__all__ = [
    "PAPER_WEKA_MODELS",
    "WEKA_JAR_ENV",
    "WEKA_WRAPPER_REQUIREMENT",
    "WekaClassifier",
    "check_weka_jar",
    "ensure_jvm",
    "is_weka_estimator",
    "java_version",
    "paper_weka_model",
    "weka_jar_in_use",
    "weka_option_problems",
    "weka_version",
]

#: The paper's Weka configurations (Table 6): name -> (Weka class, options, crisp).
#: Options are RWeka's ``Weka_control`` arguments of the authors' calls
#: (``J48(control = Weka_control(U = TRUE, A = TRUE))`` -> ``-U -A``, ...), all other options
#: at Weka's defaults. ``crisp``: the score is the predicted class (1.0 / 0.0). Prior and
#: Random are not Weka models (:mod:`.baselines`).
PAPER_WEKA_MODELS: Mapping[str, tuple[str, tuple[str, ...], bool]] = {
    "J48": ("weka.classifiers.trees.J48", (), False),
    "J48Unp": ("weka.classifiers.trees.J48", ("-U", "-A"), False),
    "Logist": ("weka.classifiers.functions.Logistic", (), False),
    "NB": ("weka.classifiers.bayes.NaiveBayes", (), False),
    "Stump": ("weka.classifiers.trees.DecisionStump", (), False),
    "IBK10": ("weka.classifiers.lazy.IBk", ("-K", "10"), False),
    "IBK1": ("weka.classifiers.lazy.IBk", ("-K", "1"), True),
    "SVM": ("weka.classifiers.functions.SMO", (), True),
    "SVMp": ("weka.classifiers.functions.SMO", ("-M",), False),
    "PART": ("weka.classifiers.rules.PART", (), False),
}



# ---------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------


def _class_attribute_name(feature_names: Sequence[str]) -> str:
    name = "class"
    while name in feature_names:
        name += "_"
    return name


def _make_header(jpype: Any, schema: FrameSchema, class_order: tuple[int, int]) -> Any:
    """Empty ``weka.core.Instances``: the class (nominal, values ``class_order``) first, then
    the features (nominal with their declared categories in order, or numeric)."""
    return build_header(jpype, _jclass, "java.util.ArrayList", "add",
                        _class_attribute_name(schema.names), [str(c) for c in class_order],
                        schema.names, schema.categories)


def _fill(jpype: Any, header: Any, matrix: FloatArray, class_values: FloatArray) -> Any:
    """A copy of ``header`` holding one instance per row: class value (Weka index, NaN for
    missing) first, then the row of the Weka value matrix (NaN = missing)."""
    data = _jclass("weka.core.Instances")(header, int(matrix.shape[0]))
    if matrix.shape[0] == 0:
        return data
    rows = np.ascontiguousarray(np.column_stack([class_values, matrix]), dtype=np.float64)
    # the whole matrix crosses to Java in one copy (a double[][]), and Java makes each row an
    # instance (Weka's API has no bulk constructor): a call from Python per row cost ~4 us
    instances = (_jclass("java.util.Arrays").stream(jpype.JArray.of(rows))
                 .map(_new_dense_instance(jpype))
                 .collect(_jclass("java.util.stream.Collectors").toList()))
    data.addAll(instances)  # as ``add`` one by one: each is copied into ``data``
    return data


@functools.cache  # the JVM lives as long as the process
def _new_dense_instance(jpype: Any) -> Any:
    """A ``java.util.function.Function``: ``double[] row -> new DenseInstance(1.0, row)``,
    run in Java (a method handle behind the interface), not called back into Python."""
    handles = _jclass("java.lang.invoke.MethodHandles")
    method_type = _jclass("java.lang.invoke.MethodType")
    java_object = _jclass("java.lang.Object").class_
    constructor = handles.publicLookup().findConstructor(
        _jclass("weka.core.DenseInstance").class_,
        method_type.methodType(_jclass("java.lang.Void").TYPE, _jclass("java.lang.Double").TYPE,
                               jpype.JArray(jpype.JDouble).class_),
    )
    weight_one = handles.insertArguments(constructor, 0, _jclass("java.lang.Double")(1.0))
    return _jclass("java.lang.invoke.MethodHandleProxies").asInterfaceInstance(
        _jclass("java.util.function.Function").class_,
        weight_one.asType(method_type.methodType(java_object, java_object)),
    )


# ---------------------------------------------------------------------------
# Estimator
# ---------------------------------------------------------------------------


class WekaClassifier(ClassifierMixin, BaseEstimator):
    """A Weka classifier (run in the JVM) on the project's DataFrames.

    Parameters
    ----------
    classname:
        Weka class, e.g. ``"weka.classifiers.trees.J48"``.
    options:
        Weka command-line options, e.g. ``["-U", "-A"]`` (all others at Weka's defaults).
    crisp:
        ``predict_proba`` returns the predicted class as probabilities 1.0 / 0.0 (the
        paper's IBK1 and SVM).
    drop_missing_train:
        Fit on the training rows without any missing feature value (RWeka's ``na.omit``).
    class_order:
        The project labels (1 = majority) in the order the ARFF header declares the class
        values: ``(0, 1)`` or ``(1, 0)``. Only Weka's tie-breaking depends on it.

    Attributes (after ``fit``)
    --------------------------
    classes_:
        ``array([0, 1])``.
    n_features_in_, feature_names_in_:
        The training frame's columns.
    n_train_used_:
        Number of training rows given to Weka (after dropping rows with missing values).

    See the module docstring for how the data are passed to Weka and what differs from RWeka.
    """

    def __init__(
        self,
        classname: str,
        options: Sequence[str] = (),
        crisp: bool = False,
        drop_missing_train: bool = True,
        class_order: tuple[int, int] = (0, 1),
    ) -> None:
        self.classname = classname
        self.options = options
        self.crisp = crisp
        self.drop_missing_train = drop_missing_train
        self.class_order = class_order

    # -- helpers -----------------------------------------------------------------------

    def _name(self) -> str:
        options = [self.options] if isinstance(self.options, str) else self.options
        opts = " ".join(str(o) for o in options)
        return f"Weka {self.classname}{' ' + opts if opts else ''}"

    def _validate_params(self) -> None:
        """Check the parameters without starting the JVM (the registry calls this when it
        loads the configuration; ``fit`` calls it too)."""
        if not (isinstance(self.classname, str) and self.classname.strip()):
            raise UserError(
                f"WekaClassifier: classname must be a Weka class name such as "
                f"'weka.classifiers.trees.J48', got {self.classname!r}."
            )
        if isinstance(self.options, str) or not all(isinstance(o, str) for o in self.options):
            raise UserError(
                f"{self._name()}: options must be a list of strings (e.g. ['-K', '10']), "
                f"got {self.options!r}."
            )
        for flag in ("crisp", "drop_missing_train"):
            if not isinstance(getattr(self, flag), bool | np.bool_):
                raise UserError(f"{self._name()}: {flag} must be true or false.")
        self._checked_class_order()

    def _checked_class_order(self) -> tuple[int, int]:
        try:
            order = tuple(int(c) for c in self.class_order)
        except (TypeError, ValueError):
            order = ()
        if sorted(order) != [0, 1]:
            raise UserError(
                f"{self._name()}: class_order must be (0, 1) or (1, 0), got {self.class_order!r}."
            )
        return order[0], order[1]

    def _new_classifier(self, jpype: Any) -> Any:
        return configured_classifier(jpype, _jclass, self.classname, self.options, self._name())

    def _model(self) -> tuple[Any, Any, Any]:
        """``(jpype, classifier, header)``, restoring them after unpickling if needed."""
        check_is_fitted(self, "classes_")
        ensure_jvm()
        jpype, _ = _import_wrapper()
        if getattr(self, "_jclassifier", None) is None:
            if self._serialized is None:
                raise UserError("this WekaClassifier has no Weka model to restore; fit it again.")
            legacy = self._legacy()
            self._jclassifier, self._jheader = (
                _deserialize(jpype, self._serialized) if legacy is None
                else legacy.deserialize(self._serialized))
            self._serialized = None
        return jpype, self._jclassifier, self._jheader

    def _legacy(self) -> Any:
        """The :class:`~.weka_legacy.LegacyWeka` whose learner this model runs (a Weka
        3.6-API jar, see :mod:`.jvm`), or None for the class path's Weka."""
        from threshold_choice.models.weka_legacy import legacy_weka

        jar = getattr(self, "weka_jar_", None)
        return None if jar is None else legacy_weka(jar)

    def _instances(self, jpype: Any, header: Any, X: pd.DataFrame) -> Any:
        check_same_schema(X, self.schema_, self._name())
        matrix = frame_to_matrix(X, self.schema_)
        missing = np.full(matrix.shape[0], np.nan)
        legacy = self._legacy()
        if legacy is not None:
            return legacy.fill(header, matrix, missing)
        return _fill(jpype, header, matrix, missing)

    def _weka_index_of_label(self) -> NDArray[np.intp]:
        """Weka class index of project label 0 and of label 1."""
        order = self._checked_class_order()
        return np.array([order.index(0), order.index(1)], dtype=np.intp)

    # -- API -------------------------------------------------------------------------------

    def fit(self, X: pd.DataFrame, y: Any) -> WekaClassifier:
        """Build the Weka classifier on ``X`` (DataFrame) and ``y`` (ints in {0, 1})."""
        self._validate_params()
        schema = frame_schema(X)
        labels = check_binary_target(y, len(X), self._name())
        order = self._checked_class_order()
        matrix = frame_to_matrix(X, schema)
        keep = np.ones(len(X), dtype=bool)
        if self.drop_missing_train:
            keep = ~np.isnan(matrix).any(axis=1)
            if not keep.any():
                raise UserError(
                    f"{self._name()}: every training row has a missing value, so none is left "
                    "after dropping them (drop_missing_train=True). Use drop_missing_train=False "
                    "(Weka handles missing values) or impute."
                )
        ensure_jvm()
        jpype, _ = _import_wrapper()
        self.weka_jar_ = legacy_weka_jar()
        legacy = self._legacy()
        weka_class = np.where(labels == order[0], 0.0, 1.0)
        if legacy is None:
            header = _make_header(jpype, schema, order)
            data = _fill(jpype, header, matrix[keep], weka_class[keep])
            classifier = self._new_classifier(jpype)
        else:
            header = legacy.header(_class_attribute_name(schema.names),
                                   [str(c) for c in order], schema.names, schema.categories)
            data = legacy.fill(header, matrix[keep], weka_class[keep])
            classifier = legacy.new_classifier(self.classname, self.options, self._name())
        try:
            classifier.buildClassifier(data)
        except Exception as exc:
            raise UserError(f"{self._name()}: Weka could not build the model ({exc}).") from exc
        self.schema_ = schema
        self.classes_ = np.array([0, 1])
        self.n_features_in_ = len(schema.names)
        self.feature_names_in_ = np.array(schema.names, dtype=object)
        self.n_train_used_ = int(keep.sum())
        self._jclassifier = classifier
        self._jheader = (_jclass("weka.core.Instances")(header, 0) if legacy is None
                         else legacy.empty_copy(header))
        self._serialized: bytes | None = None
        return self

    def predict_proba(self, X: pd.DataFrame) -> FloatArray:
        """``(n, 2)`` array: columns P(class 0), P(class 1) (class 1 = majority label).

        Weka's ``distributionForInstance`` per row, in order; with ``crisp=True`` the
        predicted class of ``classifyInstance`` as 0.0 / 1.0 instead."""
        if self.crisp:
            p1 = (self.predict(X) == 1).astype(np.float64)
            return np.column_stack([1.0 - p1, p1])
        jpype, classifier, header = self._model()
        data = self._instances(jpype, header, X)
        if data.numInstances() == 0:
            return np.empty((0, 2), dtype=np.float64)
        legacy = self._legacy()
        dist = (np.asarray(classifier.distributionsForInstances(data), dtype=np.float64)
                if legacy is None else legacy.distributions(classifier, data))
        return np.ascontiguousarray(dist[:, self._weka_index_of_label()])

    def predict(self, X: pd.DataFrame) -> NDArray[np.int64]:
        """Weka's ``classifyInstance`` per row, in order, as project labels (0 / 1); a
        missing Weka prediction (all-zero distribution) becomes 0."""
        jpype, classifier, header = self._model()
        data = self._instances(jpype, header, X)
        n = int(data.numInstances())
        label1 = int(self._weka_index_of_label()[1])
        if n == 0:
            return np.empty(0, dtype=np.int64)
        legacy = self._legacy()
        if legacy is not None:
            # Weka 3.6's classifyInstance, every row in one Java stream (NaN: missing)
            weka_pred = np.nan_to_num(legacy.classify(classifier, data), nan=-1.0)
        elif _classifies_by_max_probability(classifier):
            # Weka's AbstractClassifier.classifyInstance: the first class of largest
            # probability, missing when every probability is 0 (here: label 0); computed from
            # one batch call instead of one call per row
            dist = np.asarray(classifier.distributionsForInstances(data), dtype=np.float64)
            dist = np.where(np.isnan(dist), -np.inf, dist)  # Weka's `>` never picks a NaN
            weka_pred = np.where(dist.max(axis=1) > 0, dist.argmax(axis=1), -1)
        else:
            weka_pred = np.array([float(classifier.classifyInstance(data.instance(i)))
                                  for i in range(n)], dtype=np.float64)
        return (weka_pred == label1).astype(np.int64)

    def weka_model_string(self) -> str:
        """Weka's text description of the fitted model (``toString``)."""
        _, classifier, _ = self._model()
        return str(classifier.toString())

    # -- pickling ----------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        jclassifier = state.pop("_jclassifier", None)
        jheader = state.pop("_jheader", None)
        if jclassifier is not None:
            jpype, _ = _import_wrapper()
            legacy = self._legacy()
            state["_serialized"] = (_serialize(jpype, jclassifier, jheader) if legacy is None
                                    else legacy.serialize(jclassifier, jheader))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._jclassifier = None
        self._jheader = None


def _classifies_by_max_probability(classifier: Any) -> bool:
    """Whether ``classifier`` keeps Weka's default ``classifyInstance`` (that of
    ``weka.classifiers.AbstractClassifier``: the first class of largest probability of
    ``distributionForInstance``, missing when all are 0) and the default batch prediction
    (``distributionsForInstances`` = ``distributionForInstance`` row by row)."""
    instance = _jclass("weka.core.Instance").class_
    instances = _jclass("weka.core.Instances").class_
    abstract = _jclass("weka.classifiers.AbstractClassifier").class_
    cls = classifier.getClass()
    try:
        return bool(
            cls.getMethod("classifyInstance", instance).getDeclaringClass().equals(abstract)
            and cls.getMethod("distributionsForInstances", instances)
            .getDeclaringClass().equals(abstract)
        )
    except Exception:  # no such public method: keep Weka's per-row call
        return False


def _serialize(jpype: Any, classifier: Any, header: Any) -> bytes:
    """Java serialization of the classifier and the (empty) training header."""
    buffer = jpype.JClass("java.io.ByteArrayOutputStream")()
    objects = jpype.JArray(jpype.JClass("java.lang.Object"))([classifier, header])
    jpype.JClass("weka.core.SerializationHelper").writeAll(buffer, objects)
    return bytes(buffer.toByteArray())


def _deserialize(jpype: Any, blob: bytes) -> tuple[Any, Any]:
    stream = jpype.JClass("java.io.ByteArrayInputStream")(jpype.JArray(jpype.JByte)(blob))
    # Weka's reader resolves classes through Weka's class loaders.
    objects = jpype.JClass("weka.core.SerializationHelper").readAll(stream)
    return objects[0], objects[1]


def weka_option_problems(models: Mapping[str, tuple[str, Sequence[str]]],
                         weka_jar: str | None = None) -> dict[str, str]:
    """Build each Weka classifier ``name -> (classname, options)`` of ``weka_jar`` (None:
    the bundled Weka) as ``fit`` builds it, without data: the one-line problem of each one
    Weka refuses (an unknown class, not a classifier, options it does not take). Starts the
    JVM: the workflow runs this in a process of its own at start-up."""
    from threshold_choice.models.weka_legacy import legacy_weka

    ensure_jvm(weka_jar=weka_jar)
    jpype, _ = _import_wrapper()
    legacy = legacy_weka_jar()
    problems = {}
    for name, (classname, options) in models.items():
        model = WekaClassifier(classname, list(options))
        try:
            if legacy is None:
                model._new_classifier(jpype)
            else:
                legacy_weka(legacy).new_classifier(classname, list(options), model._name())
        except UserError as exc:
            problems[name] = str(exc)
    return problems


def is_weka_estimator(estimator: Any) -> bool:
    """Whether ``estimator`` (a class) runs Weka: :class:`WekaClassifier` or a subclass."""
    return isinstance(estimator, type) and issubclass(estimator, WekaClassifier)


def paper_weka_model(name: str, class_order: tuple[int, int] = (0, 1)) -> WekaClassifier:
    """The :class:`WekaClassifier` of one of the paper's model types (:data:`PAPER_WEKA_MODELS`)."""
    try:
        classname, options, crisp = PAPER_WEKA_MODELS[name]
    except KeyError:
        raise UserError(
            f"unknown Weka model type {name!r}; choose one of {sorted(PAPER_WEKA_MODELS)}."
        ) from None
    return WekaClassifier(classname, list(options), crisp=crisp, class_order=class_order)
