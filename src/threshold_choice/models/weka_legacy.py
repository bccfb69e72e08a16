"""Weka 3.6-API jars (such as Debian's ``weka`` 3.6.14) run inside the bundled Weka's JVM.

Why: the authors' Weka (3.9.1, through RWeka, 2017) predates revision r14468 (first released
in 3.9.2 and 3.8.2), which changed ``Logistic``'s objective (and so ``SMO -M``'s
calibration). Weka 3.6.14's ``Logistic`` has the old objective; its scores are bit-identical
to those of 3.9.1's on the paper's 26 datasets x 10 splits. Debian ships that jar
(:mod:`threshold_choice.models.weka_debian` fetches it).

How: the jar cannot go on the JVM's class path beside the bundled 3.9.6 (one class name, two
versions), and its API differs (``FastVector``, the class ``Instance``; no ``DenseInstance``,
``AbstractClassifier`` or ``distributionsForInstances``). So it is loaded by a class loader of
its own whose parent is the platform loader (it sees Java's classes, not the bundled Weka),
and everything that touches many rows runs in Java: the rows cross as one ``double[][]`` and
become instances through method handles (a stream mapped to the 3.6 constructor
``Instance(double weight, double[] values)`` and fed to ``Instances.add``), and predictions
are one stream over the instances mapped to ``distributionForInstance`` (or
``classifyInstance``) whose results come back as one ``double[]``. No Python call per row.
The paper's ``IBk`` (default options but ``-K``) is predicted by one Java call on arrays
instead (:mod:`.weka_ibk`): Weka 3.6's arithmetic, the same numbers, in half the time.

The instances are built as for the bundled Weka (:mod:`threshold_choice.models.weka`): the
class attribute first (nominal, two values), then the features (nominal with their declared
categories, or numeric), NaN = missing.
"""

from __future__ import annotations

import functools
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from threshold_choice._typing import FloatArray
from threshold_choice.models.weka_java import build_header, configured_classifier

__all__ = ["LegacyWeka", "is_legacy_weka_jar", "legacy_weka"]

#: a class of the Weka 3.7+ API: a Weka jar without it has the 3.6 API
_MODERN_API_CLASS = "weka/core/DenseInstance.class"


def is_legacy_weka_jar(path: str | Path) -> bool:
    """Whether the Weka jar ``path`` has the Weka 3.6 API (no ``weka.core.DenseInstance``)."""
    with zipfile.ZipFile(path) as jar:
        return _MODERN_API_CLASS not in set(jar.namelist())


@functools.cache  # one class loader per jar and process
def legacy_weka(jar: str) -> LegacyWeka:
    """The one :class:`LegacyWeka` of ``jar`` (a resolved path) in this process."""
    return LegacyWeka(jar)


class LegacyWeka:
    """The classes of one Weka 3.6-API jar, in their own class loader (see the module
    docstring). The JVM must be running (:func:`threshold_choice.models.jvm.ensure_jvm`)."""

    def __init__(self, jar: str | Path) -> None:
        import jpype

        self.jpype = jpype
        self.jar = str(Path(jar).resolve())
        url = jpype.JClass("java.io.File")(self.jar).toURI().toURL()
        parent = jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader()
        self.loader = jpype.JClass("java.net.URLClassLoader")(
            jpype.JArray(jpype.JClass("java.net.URL"))([url]), parent)
        self._classes: dict[str, Any] = {}
        self._handles = jpype.JClass("java.lang.invoke.MethodHandles")
        self._type = jpype.JClass("java.lang.invoke.MethodType")
        self._proxies = jpype.JClass("java.lang.invoke.MethodHandleProxies")
        self._object = jpype.JClass("java.lang.Object").class_
        self._void = jpype.JClass("java.lang.Void").TYPE
        self._doubles = jpype.JArray(jpype.JDouble).class_
        self._instance = self.jclass("weka.core.Instance")
        self._instances = self.jclass("weka.core.Instances")
        constructor = self._handles.publicLookup().findConstructor(
            self._instance.class_,
            self._type.methodType(self._void, jpype.JClass("java.lang.Double").TYPE,
                                  self._doubles))
        weight_one = self._handles.insertArguments(constructor, 0,
                                                   jpype.JClass("java.lang.Double")(1.0))
        self._new_instance = self._interface(
            "java.util.function.Function",
            weight_one.asType(self._type.methodType(self._object, self._object)))

    def jclass(self, name: str) -> Any:
        """The class ``name`` of this jar (looked up once)."""
        if name not in self._classes:
            self._classes[name] = self.jpype.JClass(name, loader=self.loader)
        return self._classes[name]

    @property
    def version(self) -> str:
        """``weka.core.Version.VERSION`` of this jar, e.g. ``"3.6.14"``."""
        return str(self.jclass("weka.core.Version").VERSION)


    def _interface(self, name: str, handle: Any) -> Any:
        return self._proxies.asInterfaceInstance(self.jpype.JClass(name).class_, handle)

    # -- instances ---------------------------------------------------------------------------

    def header(self, class_name: str, class_values: Sequence[str], names: Sequence[str],
               categories: Sequence[Sequence[Any] | None]) -> Any:
        """Empty ``Instances``: the nominal class attribute first, then the features."""
        return build_header(self.jpype, self.jclass, "weka.core.FastVector", "addElement",
                            class_name, class_values, names, categories)

    def fill(self, header: Any, matrix: FloatArray, class_values: FloatArray) -> Any:
        """A copy of ``header`` holding one instance per row (class value first)."""
        data = self._instances(header, int(matrix.shape[0]))
        if matrix.shape[0] == 0:
            return data
        rows = np.ascontiguousarray(np.column_stack([class_values, matrix]), dtype=np.float64)
        add = self._handles.publicLookup().findVirtual(
            self._instances.class_, "add",
            self._type.methodType(self._void, self._instance.class_)).bindTo(data)
        consumer = self._interface("java.util.function.Consumer",
                                   add.asType(self._type.methodType(self._void, self._object)))
        (self.jpype.JClass("java.util.Arrays").stream(self.jpype.JArray.of(rows))
         .map(self._new_instance).forEach(consumer))
        return data

    def empty_copy(self, header: Any) -> Any:
        return self._instances(header, 0)

    # -- classifiers -------------------------------------------------------------------------

    def new_classifier(self, classname: str, options: Sequence[str], name: str) -> Any:
        """A configured classifier of this jar (a :class:`UserError` naming ``name`` when the
        class or its options are refused)."""
        return configured_classifier(self.jpype, self.jclass, classname, options, name,
                                     where=self.jar)

    def _each_instance(self, data: Any) -> Any:
        """A Java stream of the instances of ``data``, in order."""
        return (self.jpype.JClass("java.util.Collections").list(data.enumerateInstances())
                .stream())

    def _per_instance(self, data: Any, handle: Any) -> FloatArray:
        """``handle`` (an ``Instance`` to a ``double``) over the instances of ``data``, in
        order, in one Java stream."""
        double = self.jpype.JClass("java.lang.Double").TYPE
        to_double = self._interface(
            "java.util.function.ToDoubleFunction",
            handle.asType(self._type.methodType(double, self._object)))
        return np.asarray(self._each_instance(data).mapToDouble(to_double).toArray(),
                          dtype=np.float64)

    def _arrays_per_instance(self, data: Any, handle: Any) -> FloatArray:
        """``handle`` (an ``Instance`` to a ``double[]``) over the instances of ``data``, in
        order, the arrays one after the other, in one Java stream."""
        as_stream = self._handles.publicLookup().findStatic(
            self.jpype.JClass("java.util.Arrays").class_, "stream",
            self._type.methodType(self.jpype.JClass("java.util.stream.DoubleStream").class_,
                                  self._doubles))
        flat = self._interface(
            "java.util.function.Function",
            self._handles.filterReturnValue(handle, as_stream)
            .asType(self._type.methodType(self._object, self._object)))
        return np.asarray(self._each_instance(data).flatMapToDouble(flat).toArray(),
                          dtype=np.float64)

    def values(self, data: Any) -> FloatArray:
        """Every value of every instance of ``data`` (``toDoubleArray``), row-major."""
        return self._arrays_per_instance(data, self._handles.publicLookup().findVirtual(
            self._instance.class_, "toDoubleArray", self._type.methodType(self._doubles)))

    def weights(self, data: Any) -> FloatArray:
        """The weight of every instance of ``data``."""
        return self._per_instance(data, self._handles.publicLookup().findVirtual(
            self._instance.class_, "weight",
            self._type.methodType(self.jpype.JClass("java.lang.Double").TYPE)))

    def distributions(self, classifier: Any, data: Any, *,
                      batched: bool = True) -> FloatArray:
        """``distributionForInstance`` of every instance of ``data``: ``(n, classes)``.

        An ``IBk`` with Weka's default options but ``-K`` is computed in one Java call
        (:mod:`.weka_ibk`, the same numbers) unless ``batched`` is False."""
        n = int(data.numInstances())
        classes = int(data.numClasses())
        if n == 0:
            return np.empty((0, classes), dtype=np.float64)
        if batched:
            from threshold_choice.models import weka_ibk

            found = weka_ibk.distributions(self, classifier, data)
            if found is not None:
                return found
        distribution = self._handles.publicLookup().findVirtual(
            classifier.getClass(), "distributionForInstance",
            self._type.methodType(self._doubles, self._instance.class_)).bindTo(classifier)
        return self._arrays_per_instance(data, distribution).reshape(n, classes)

    def classify(self, classifier: Any, data: Any, *, batched: bool = True) -> FloatArray:
        """``classifyInstance`` of every instance of ``data`` (Weka class indices; NaN for a
        missing prediction). For the ``IBk`` of :meth:`distributions`, Weka 3.6's
        ``Classifier.classifyInstance`` on its distributions: the first class of largest
        probability, missing when none is above 0."""
        if int(data.numInstances()) == 0:
            return np.empty(0, dtype=np.float64)
        if batched:
            from threshold_choice.models import weka_ibk

            found = weka_ibk.distributions(self, classifier, data)
            if found is not None:
                return np.where(found.max(axis=1) > 0, found.argmax(axis=1), np.nan)
        classify = self._handles.publicLookup().findVirtual(
            classifier.getClass(), "classifyInstance",
            self._type.methodType(self.jpype.JClass("java.lang.Double").TYPE,
                                  self._instance.class_)).bindTo(classifier)
        return self._per_instance(data, classify)

    def serialize(self, classifier: Any, header: Any) -> bytes:
        """Java serialization of the classifier and the (empty) training header."""
        jpype = self.jpype
        buffer = jpype.JClass("java.io.ByteArrayOutputStream")()
        objects = jpype.JArray(jpype.JClass("java.lang.Object"))([classifier, header])
        self.jclass("weka.core.SerializationHelper").writeAll(buffer, objects)
        return bytes(buffer.toByteArray())

    def deserialize(self, blob: bytes) -> tuple[Any, Any]:
        """The classifier and header of :meth:`serialize`, resolved in this jar's loader."""
        jpype = self.jpype
        stream = jpype.JClass("java.io.ByteArrayInputStream")(jpype.JArray(jpype.JByte)(blob))
        # an ObjectInputStream resolves classes through the loader of the code that calls
        # readObject: this jar's SerializationHelper
        objects = self.jclass("weka.core.SerializationHelper").readAll(stream)
        return objects[0], objects[1]
