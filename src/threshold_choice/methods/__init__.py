"""Threshold choice methods: how each is represented, built and registered.

* :mod:`~threshold_choice.methods.selection`: a method applied to one set of scores is a
  :class:`Selection`, piecewise in the presumed cost proportion ``c_hat``;
* :mod:`~threshold_choice.methods.builders`: the methods of papers ``000_...`` and
  ``003_...`` as functions from cost lines to a selection;
* :mod:`~threshold_choice.methods.specs`: one :class:`MethodSpec` per method (name, builder,
  what it needs and how it behaves), :func:`make_selection`, and the live lists of names
  (:data:`METHODS`, :data:`NEEDS_TRAIN`, ...). :func:`register_method` adds one.

Conventions: class 1 is the class whose probability the scores estimate; a threshold ``t``
predicts 1 iff ``score > t``; cost lines are indexed as in :mod:`threshold_choice.costlines`.
"""

from threshold_choice.methods import builders, selection, specs
from threshold_choice.methods.builders import *  # noqa: F403
from threshold_choice.methods.selection import *  # noqa: F403
from threshold_choice.methods.specs import *  # noqa: F403

# the three modules' public names, each listed once, in its module's __all__
__all__ = sorted({*builders.__all__, *selection.__all__, *specs.__all__})
