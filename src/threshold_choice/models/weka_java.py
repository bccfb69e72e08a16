"""What the two Weka APIs the models run share (the class path's Weka 3.7+ and a Weka
3.6-API jar in a class loader of its own, :mod:`.weka_legacy`): an empty ``Instances``
header and a configured classifier, with Weka's classes looked up through the caller's
``jclass``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from threshold_choice.errors import UserError


def build_header(jpype: Any, jclass: Any, list_class: str, add: str, class_name: str,
                 class_values: Sequence[str], names: Sequence[str],
                 categories: Sequence[Sequence[Any] | None]) -> Any:
    """Empty ``weka.core.Instances`` named as RWeka names it, class index 0: the nominal class
    attribute ``class_name`` first, then the features (``categories[j]`` None: numeric).
    ``jclass`` looks up Weka's classes; the attribute lists are ``list_class`` objects filled
    with their method ``add`` (Weka 3.7+: ``java.util.ArrayList``/``add``; Weka 3.6:
    ``weka.core.FastVector``/``addElement``)."""
    attribute = jclass("weka.core.Attribute")
    new_list = jclass(list_class)

    def nominal(name: str, values: Sequence[Any]) -> Any:
        labels = new_list()
        for value in values:
            getattr(labels, add)(jpype.JString(str(value)))
        return attribute(jpype.JString(name), labels)

    atts = new_list()
    getattr(atts, add)(nominal(class_name, class_values))
    for name, cats in zip(names, categories, strict=True):
        getattr(atts, add)(attribute(jpype.JString(name)) if cats is None
                           else nominal(name, cats))
    try:
        header = jclass("weka.core.Instances")(jpype.JString("R_data_frame"), atts, 0)
    except Exception as exc:  # e.g. duplicate attribute or nominal value names
        raise UserError(
            f"Weka refused the feature columns ({exc}). Give the columns unique names and "
            "the nominal columns categories whose string forms are distinct."
        ) from exc
    header.setClassIndex(0)
    return header


def configured_classifier(jpype: Any, jclass: Any, classname: str, options: Sequence[str],
                          name: str, where: str = "weka.jar") -> Any:
    """A new Weka classifier ``classname`` with ``options``, its classes looked up with
    ``jclass`` (the class path's Weka, or a Weka 3.6 jar's loader): checked to be a
    classifier on the class itself, before any of its code runs in a constructor; a
    :class:`UserError` naming ``name`` when Weka refuses the class or the options."""
    try:
        cls = jclass(classname)
    except Exception as exc:
        raise UserError(
            f"Weka class {classname!r} not found in {where} ({exc}); give a fully qualified "
            "class of it, e.g. 'weka.classifiers.trees.J48'."
        ) from exc
    if not jclass("weka.classifiers.Classifier").class_.isAssignableFrom(cls.class_):
        raise UserError(f"{classname!r} is not a Weka classifier.")
    try:
        classifier = cls()
    except Exception as exc:
        raise UserError(f"Weka class {classname!r} is not instantiable ({exc}).") from exc
    opts = jpype.JArray(jpype.JString)([str(o) for o in options])
    try:
        classifier.setOptions(opts)
        jclass("weka.core.Utils").checkForRemainingOptions(opts)
    except Exception as exc:
        raise UserError(f"{name}: Weka refused the options ({exc}).") from exc
    return classifier


__all__ = ["build_header", "configured_classifier"]
