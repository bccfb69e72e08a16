"""One record per threshold choice method: its name, how it is built and what it needs.

Every part of the project that treats methods differently reads the :class:`MethodSpec` of
a method, never its name: :func:`make_selection` builds it, the evaluation batches the
uncertainty-aware variants, the bootstrap picks its fast paths, the scikit-learn classifier
knows whether and how it can predict, the plots take its colour, the CLI and the
workflow's config offer it. The lists below (:data:`METHODS`, :data:`NEEDS_TRAIN`, ...) are
live views of the registry: a method added with :func:`register_method` is in them at once.

Adding a method: write its builder (cost lines to a
:class:`~threshold_choice.methods.selection.Selection`) and register one record, e.g.::

    from threshold_choice.methods import MethodSpec, register_method, score_driven

    def halfway(test, train, options):
        # score-driven at (c_hat + 1/2) / 2: a cautious reading of the presumed cost
        ...

    register_method(MethodSpec("halfway", halfway, "score-driven pulled towards 1/2",
                               reads_probabilities=True, predict="score"))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice.cost_distributions import UNIFORM, CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.methods.builders import (
    TieBreaking,
    fixed,
    instance_uniform,
    rate_driven,
    score_driven,
    skew_map,
    test_optimal,
    train_optimal,
    uncertainty_aware,
    uniform,
    with_input_map,
)
from threshold_choice.methods.selection import Selection

#: how :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` turns the method's
#: selection on its reference scores into a threshold: the selected line's threshold
#: (``"lines"``), the method's input itself (``"score"``: ``t = phi(c_hat)``) or the
#: threshold realising the rate ``phi(c_hat)`` (``"rate"``)
PredictRule = Literal["lines", "score", "rate"]


@dataclass(frozen=True)
class SelectionOptions:
    """What a method's builder may read besides the cost lines (see :func:`make_selection`
    for each field's meaning); ``skew_pi0`` is already resolved and ``distribution`` parsed."""

    gamma: float | None = None
    skew_pi0: float = 0.5
    rate_threshold_offset: float | None = None
    tie_breaking: TieBreaking = "project"
    distribution: CostDistribution = UNIFORM
    fixed_threshold: float | None = None
    fixed_rate: float | None = None


#: a method's builder: (test cost lines, training cost lines or None, options) -> Selection
Builder = Callable[[CostLines, "CostLines | None", SelectionOptions], Selection]


@dataclass(frozen=True)
class MethodSpec:
    """Everything the project needs to know about one threshold choice method.

    Parameters
    ----------
    name : str
        The method's name (``config``, CLI, tables).
    build : callable
        ``build(test, train, options) -> Selection``: the method applied to the test cost
        lines (``train``: the training ones, ``None`` when not given;
        ``options``: :class:`SelectionOptions`).
    summary : str
        One line saying what the method does.
    needs_train : bool
        It selects on the training scores (``build`` is never called with ``train=None``).
    reads_probabilities : bool
        It thresholds at ``c_hat`` or a map of it, so the scores must be probabilities of
        class 1 in [0, 1]; the others use only the scores' ranks.
    aware_of : str or None
        The plain method this is the uncertainty-aware variant of (its input is the
        posterior mean ``E[c | c_hat]``, which depends on gamma). The evaluation builds the
        plain method once and maps all its variants' breaks in one pass.
    label_free_breaks : bool
        Its break points in ``c_hat`` do not depend on the test labels (given the training
        scores), so its exact expected loss is linear in the test cost lines: the bootstrap
        evaluates all replicates at once.
    skew : bool
        It maps ``c_hat`` through the cost-to-skew map, whose class-0 proportion is the
        training one, else the test one (which varies from one bootstrap replicate to another
        unless the classes are resampled separately).
    interpolates : bool
        Its loss mixes two adjacent cost lines (the rate methods).
    oracle : bool
        It needs the labels of the examples it is applied to: drawn as a bound, never "the
        best method".
    predict : {"lines", "score", "rate"} or None
        How the scikit-learn classifier applies it (:data:`PredictRule`); ``None``: it cannot
        predict, for the reason ``not_predictable``.
    predict_as : str or None
        The method whose selection on the classifier's reference scores gives the threshold
        (train-optimal: test-optimal on the training scores); ``None``: this one, or
        ``variant_of`` for a method frozen at ``fixed_input`` (``selection_for_predict``).
    not_predictable : str
        Why the classifier cannot apply it (when ``predict`` is ``None``).
    colour : str or None
        Its colour in the figures (matplotlib), ``None`` for one of the cycle's.
    fixed_input : callable or None
        For a method frozen at one input whatever ``c_hat`` (score-fixed, rate-fixed):
        ``fixed_input(options)``, the ``c_hat`` at which ``variant_of`` is frozen (the fixed
        threshold or rate). The classifier feeds it to ``variant_of`` in place of ``c_hat``;
        needs ``variant_of``.
    variant_of : str or None
        The method whose selection this one transforms with ``derive`` (the same lines and
        options; e.g. rate-uniform is rate-driven given a uniform ``c_hat``): the evaluation
        builds that selection once for it and all its variants. ``build`` must give the same
        selection (``variant(variant_of, derive)`` is such a builder).
    derive : callable or None
        ``derive(selection of variant_of, options) -> Selection``, with ``variant_of``.

    Attributes
    ----------
    gamma_aware : bool
        Whether its selection depends on the certainty gamma (``aware_of`` is set).
    selection_for_predict : str
        The method whose selection the classifier applies: ``predict_as``, else
        ``variant_of`` for a frozen method, else this one.

    See Also
    --------
    method_spec : The record of a registered method.
    register_method : Add a record to the methods every part of the project offers.
    make_selection : Apply a method to cost lines.

    Examples
    --------
    >>> from threshold_choice import method_spec
    >>> spec = method_spec("rate-driven")
    >>> spec.summary
    'predict class 0 for a fraction c_hat of the examples'
    >>> spec.interpolates, spec.needs_train, spec.predict
    (True, False, 'rate')
    >>> method_spec("train-optimal").predict_as  # its threshold: test-optimal's on training
    'test-optimal'
    """

    name: str
    build: Builder
    summary: str
    needs_train: bool = False
    reads_probabilities: bool = False
    aware_of: str | None = None
    label_free_breaks: bool = False
    skew: bool = False
    interpolates: bool = False
    oracle: bool = False
    predict: PredictRule | None = None
    predict_as: str | None = None
    not_predictable: str = "cannot set a threshold from a cost proportion alone"
    colour: str | None = None
    fixed_input: Callable[[SelectionOptions], float] | None = None
    variant_of: str | None = None
    derive: Callable[[Selection, SelectionOptions], Selection] | None = None

    @property
    def gamma_aware(self) -> bool:
        """Whether its selection depends on the certainty gamma."""
        return self.aware_of is not None

    @property
    def selection_for_predict(self) -> str:
        """The method whose selection the classifier applies to its reference scores."""
        if self.predict_as is not None:
            return self.predict_as
        if self.fixed_input is not None and self.variant_of is not None:
            return self.variant_of  # frozen at one input: the base method's selection
        return self.name


_REGISTRY: dict[str, MethodSpec] = {}


def register_method(spec: MethodSpec, *, replace: bool = False) -> MethodSpec:
    """Add a method to those every part of the project offers.

    Once registered, the method is in :data:`METHODS` (and the other live lists its record
    qualifies it for), and :func:`make_selection`, the expected losses, the bootstrap, the
    classifier, the scorers, the plots and the command line accept its name.
    ``threshold_choice.methods.unregister_method`` removes it again.

    Parameters
    ----------
    spec : MethodSpec
        The method's record; its ``aware_of`` and ``predict_as``, when set, must name
        registered methods (or itself).
    replace : bool, default=False
        Replace a registered method of the same name instead of refusing it.

    Returns
    -------
    MethodSpec
        ``spec``.

    Raises
    ------
    UserError
        If ``spec`` is not a :class:`MethodSpec`, has no name, has the name of a registered
        method (without ``replace``), refers to a method that is not registered, or has a
        ``predict`` other than ``"lines"``, ``"score"``, ``"rate"`` or ``None``.

    See Also
    --------
    MethodSpec : What a record holds.

    Examples
    --------
    A copy of score-driven under another name (the module docstring of
    ``threshold_choice.methods.specs`` builds a method of one's own):

    >>> import dataclasses
    >>> from threshold_choice import METHODS, method_spec, register_method
    >>> from threshold_choice.methods import unregister_method
    >>> spec = dataclasses.replace(method_spec("score-driven"), name="my-score-driven")
    >>> register_method(spec).name
    'my-score-driven'
    >>> "my-score-driven" in METHODS
    True
    >>> unregister_method("my-score-driven")
    >>> "my-score-driven" in METHODS
    False
    """
    if not isinstance(spec, MethodSpec):
        raise UserError(f"register_method takes a MethodSpec, got {type(spec).__name__}")
    if not spec.name or not isinstance(spec.name, str):
        raise UserError("a method needs a non-empty name")
    if spec.name in _REGISTRY and not replace:
        raise UserError(f"a method named {spec.name!r} is already registered; "
                        "pass replace=True to replace it")
    for other in (spec.aware_of, spec.predict_as, spec.variant_of):
        if other is not None and other not in _REGISTRY and other != spec.name:
            raise UserError(f"method {spec.name!r} refers to {other!r}, which is not registered")
    if (spec.variant_of is None) != (spec.derive is None) or spec.variant_of == spec.name:
        raise UserError(f"method {spec.name!r}: give both variant_of (another method) and "
                        "derive, or neither")
    if spec.fixed_input is not None and spec.variant_of is None:
        raise UserError(f"method {spec.name!r}: fixed_input freezes another method's "
                        "selection; give that method as variant_of")
    if spec.predict not in (None, "lines", "score", "rate"):
        raise UserError(f"method {spec.name!r}: predict must be 'lines', 'score', 'rate' or "
                        f"None, got {spec.predict!r}")
    _REGISTRY[spec.name] = spec
    return spec


def unregister_method(name: str) -> None:
    """Remove a method added with :func:`register_method` (the built-in ones stay)."""
    if name in BUILTIN_METHODS:
        raise UserError(f"{name!r} is a built-in method and cannot be removed")
    _REGISTRY.pop(name, None)


def method_spec(method: str) -> MethodSpec:
    """Return the record of a registered method.

    Parameters
    ----------
    method : str
        The method's name, one of :data:`METHODS`.

    Returns
    -------
    MethodSpec
        Its record: builder, summary and traits.

    Raises
    ------
    UserError
        For an unknown name (the message lists the registered methods).

    See Also
    --------
    register_method : Add a method.

    Examples
    --------
    >>> from threshold_choice import method_spec
    >>> method_spec("score-driven").summary
    'threshold t = c_hat (predict 1 iff score > c_hat)'
    >>> method_spec("score-driven").reads_probabilities
    True
    """
    try:
        return _REGISTRY[method]
    except (KeyError, TypeError):
        raise UserError(
            f"unknown method {method!r}; choose from {', '.join(_REGISTRY)}"
        ) from None


class MethodNames(Sequence[str]):
    """The names of the registered methods whose record passes ``keep``, in registration
    order, read from the registry at each use (so a method registered later is included).
    Behaves as a tuple of names."""

    def __init__(self, keep: Callable[[MethodSpec], bool], what: str) -> None:
        self._keep = keep
        self._what = what

    def _names(self) -> tuple[str, ...]:
        return tuple(name for name, spec in _REGISTRY.items() if self._keep(spec))

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: Any) -> Any:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        spec = _REGISTRY.get(name) if isinstance(name, str) else None
        return spec is not None and self._keep(spec)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self._names() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # it changes with the registry

    def __repr__(self) -> str:
        return f"<{self._what}: {', '.join(self._names())}>"


#: The names of every registered method, in display order (the 13 built-in ones first:
#: test-optimal, train-optimal, score-driven, rate-driven, score-uniform, rate-uniform,
#: score-driven-z, rate-driven-z, test-optimal-aware, train-optimal-aware, score-driven-aware,
#: score-fixed, rate-fixed). A live, read-only sequence that behaves as a tuple of names
#: (``in``, ``len``, indexing, iteration, ``==`` with a tuple or list): a method added with
#: :func:`register_method` is in it at once.
METHODS = MethodNames(lambda spec: True, "methods")
#: methods that read the scores as probabilities, so the scores must lie in [0, 1]; the
#: others are rank-based and take any real scores
PROBABILITY_METHODS = MethodNames(lambda spec: spec.reads_probabilities, "probability methods")
#: methods that select on the training scores
NEEDS_TRAIN = MethodNames(lambda spec: spec.needs_train, "methods on training scores")
#: methods whose selection depends on gamma (they know the uncertainty)
GAMMA_AWARE = MethodNames(lambda spec: spec.gamma_aware, "uncertainty-aware methods")
#: methods that need the labels of the examples they are applied to
ORACLES = MethodNames(lambda spec: spec.oracle, "oracle methods")
#: methods whose break points do not depend on the test labels (the bootstrap's fast path)
LABEL_FREE_BREAKS = MethodNames(lambda spec: spec.label_free_breaks, "label-free methods")
#: methods the scikit-learn classifier can apply when predicting
PREDICTABLE = MethodNames(lambda spec: spec.predict is not None, "predictable methods")


def probability_problem(scores: ArrayLike, methods: Sequence[str], what: str,
                        how: str = "") -> str | None:
    """Why ``methods`` cannot use ``scores``: ``None`` if the scores lie in [0, 1] or every
    method is rank-based, else a message naming the methods that read them as probabilities
    (``how``: where the rank-based methods are chosen, e.g. ``" with --method"``)."""
    values = np.asarray(scores, dtype=np.float64)
    if values.size == 0 or (values.min() >= 0.0 and values.max() <= 1.0):
        return None
    needy = [m for m in methods if m in PROBABILITY_METHODS]
    if not needy:
        return None
    rank_based = ", ".join(m for m in METHODS if m not in PROBABILITY_METHODS)
    return (
        f"{what} range from {values.min():g} to {values.max():g}, outside [0, 1]; "
        f"{', '.join(needy)} read(s) them as probabilities (estimates of P(class 1)): rescale "
        f"the scores into [0, 1] (e.g. calibrate them), or choose rank-based methods{how} "
        f"({rank_based}), which take any real scores"
    )


def make_selection(
    method: str,
    test: CostLines,
    *,
    train: CostLines | None = None,
    gamma: float | None = None,
    skew_pi0: float | None = None,
    rate_threshold_offset: float | None = None,
    tie_breaking: TieBreaking = "project",
    distribution: CostDistribution | str = UNIFORM,
    fixed_threshold: float | None = None,
    fixed_rate: float | None = None,
) -> Selection:
    """Apply a threshold choice method to the test cost lines.

    The result, a :class:`~threshold_choice.methods.selection.Selection`, is the method as a
    function of the presumed cost proportion ``c_hat``: break points in ``c_hat`` and the
    cost line (or, for the rate methods, the mixture of two adjacent lines) selected
    between them. The expected-loss functions integrate it.

    Parameters
    ----------
    method : str
        One of :data:`METHODS`.
    test : CostLines
        The test cost lines (:meth:`CostLines.from_scores`), whose losses the selection
        holds.
    train : CostLines or None, default=None
        The training cost lines: required by the methods that select on training scores
        (train-optimal, train-optimal-aware).
    gamma : float or None, default=None
        The certainty of ``c_hat``: required by the ``*-aware`` methods only.
    skew_pi0 : float or None, default=None
        The class-0 proportion of the cost-to-skew map of the ``-z`` methods; ``None``: the
        training proportion when ``train`` is given (as the authors did), else the test one.
    rate_threshold_offset : float or None, default=None
        The authors' shift of rate-driven's thresholds below the scores (``1e-7``), for the
        rate methods (rate-driven, rate-uniform, rate-driven-z, rate-fixed); ``None``: the
        exact interpolation between adjacent lines.
    tie_breaking : {"project", "authors"}, default="project"
        How the optimal methods (and their aware variants) break exact ties between lines
        at single points (the ``grid`` and ``montecarlo`` estimators).
    distribution : CostDistribution or str, default=UNIFORM
        The belief about the true cost (a spec such as ``"beta:2,2"``): the prior of the
        ``*-aware`` methods' posterior mean, and the source of the fixed methods' defaults.
    fixed_threshold : float or None, default=None
        The threshold of score-fixed; ``None``: the mean ``E[c]`` of ``distribution`` (1/2
        for the uniform: paper 000's ``t = 0.5``, the single threshold score-driven-aware
        sets at ``gamma = 0``).
    fixed_rate : float or None, default=None
        The predicted-0 rate of rate-fixed; ``None``: the mean ``E[c]`` of
        ``distribution``.

    Returns
    -------
    Selection
        The method applied to ``test``.

    Raises
    ------
    UserError
        For an unknown method, a method on training scores without ``train``, an aware
        method without ``gamma``, or an invalid ``distribution``.

    See Also
    --------
    threshold_choice.expected_loss.expected_loss : The expected loss of a selection.
    threshold_choice.expected_cost_curve : Its expected cost curve ``K(c)``.
    threshold_choice.expected_losses : Every step at once, from labels and scores.

    Examples
    --------
    >>> from threshold_choice import CostLines, make_selection
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> optimal = make_selection("test-optimal", lines)
    >>> optimal.breaks.tolist()  # c_hat where the lowest line changes
    [0.0, 0.5, 1.0]
    >>> round(float(optimal.loss(0.3, 0.3)), 4)  # loss at c = 0.3 given c_hat = 0.3
    0.15
    >>> make_selection("rate-driven", lines).interpolating
    True
    """
    spec = method_spec(method)
    return spec.build(test, train, _selection_options(
        spec, test, train, gamma, skew_pi0, rate_threshold_offset, tie_breaking, distribution,
        fixed_threshold, fixed_rate))


def _selection_options(
    spec: MethodSpec, test: CostLines, train: CostLines | None, gamma: float | None = None,
    skew_pi0: float | None = None, rate_threshold_offset: float | None = None,
    tie_breaking: TieBreaking = "project", distribution: CostDistribution | str = UNIFORM,
    fixed_threshold: float | None = None, fixed_rate: float | None = None,
) -> SelectionOptions:
    """The options of :func:`make_selection` resolved for ``spec``, after its checks."""
    if spec.needs_train and train is None:
        raise UserError(
            f"method {spec.name} selects on training scores: pass train=CostLines.from_scores("
            "train_y, train_s), the labels and scores of the model's training data")
    if spec.gamma_aware and gamma is None:
        raise UserError(f"method {spec.name} needs the certainty gamma")
    if skew_pi0 is None:
        skew_pi0 = (train if train is not None else test).pi0
    return SelectionOptions(gamma, skew_pi0, rate_threshold_offset, tie_breaking,
                            parse_cost_distribution(distribution), fixed_threshold, fixed_rate)


def derive_selection(
    method: str, base: Selection, test: CostLines, *, train: CostLines | None = None,
    **options: Any,
) -> Selection:
    """``make_selection(method, test, train=train, **options)`` for a variant (its record
    names ``variant_of``), from ``base``: the selection of ``variant_of`` on the same lines
    with the same options. The evaluation builds that once for a method and its variants."""
    spec = method_spec(method)
    if spec.derive is None:
        raise UserError(f"method {method} is not a variant of another method")
    return spec.derive(base, _selection_options(spec, test, train, **options))


def variant(base: str, derive: Callable[[Selection, SelectionOptions], Selection]) -> Builder:
    """The builder of a variant of ``base``: ``derive`` applied to ``base``'s selection."""

    def build(test: CostLines, train: CostLines | None, o: SelectionOptions) -> Selection:
        return derive(_REGISTRY[base].build(test, train, o), o)

    return build


# -- the built-in methods (papers 000 and 003) ------------------------------------------------


def _aware(base: str) -> Builder:
    def build(test: CostLines, train: CostLines | None, o: SelectionOptions) -> Selection:
        assert o.gamma is not None
        plain = _REGISTRY[base].build(test, train, o)
        return uncertainty_aware(plain, o.gamma, o.distribution)

    return build


def _variant_spec(name: str, base: str,
                  derive: Callable[[Selection, SelectionOptions], Selection], summary: str,
                  **traits: Any) -> MethodSpec:
    """The record of the variant ``name`` of ``base``, built by ``derive`` from its selection."""
    return MethodSpec(name, variant(base, derive), summary, variant_of=base, derive=derive,
                      **traits)


def _train(train: CostLines | None) -> CostLines:
    assert train is not None  # make_selection checked it
    return train


def _fixed_threshold(o: SelectionOptions) -> float:
    """Score-fixed's threshold: the one given, else the belief's mean ``E[c]``."""
    return o.distribution.mean if o.fixed_threshold is None else o.fixed_threshold


def _fixed_rate(o: SelectionOptions) -> float:
    """Rate-fixed's predicted-0 rate: the one given, else the belief's mean ``E[c]``."""
    return o.distribution.mean if o.fixed_rate is None else o.fixed_rate


_ORACLE = "needs the labels of the examples it predicts (an oracle for evaluation)"
_BUILTIN: tuple[MethodSpec, ...] = (
    MethodSpec(
        "test-optimal",
        lambda t, tr, o: test_optimal(t, tie_breaking=o.tie_breaking),
        "the lowest test cost line at c_hat (the optimal cost curve; needs the test labels)",
        oracle=True, not_predictable=_ORACLE, colour="tab:green",
    ),
    MethodSpec(
        "train-optimal",
        lambda t, tr, o: train_optimal(_train(tr), t, tie_breaking=o.tie_breaking),
        "the threshold of the lowest training cost line at c_hat",
        needs_train=True, label_free_breaks=True, predict="lines", predict_as="test-optimal",
        colour="tab:blue",
    ),
    MethodSpec(
        "score-driven", lambda t, tr, o: score_driven(t),
        "threshold t = c_hat (predict 1 iff score > c_hat)",
        reads_probabilities=True, label_free_breaks=True, predict="score", colour="tab:red",
    ),
    MethodSpec(
        "rate-driven",
        lambda t, tr, o: rate_driven(t, threshold_offset=o.rate_threshold_offset),
        "predict class 0 for a fraction c_hat of the examples",
        interpolates=True, predict="rate", colour="tab:purple",
    ),
    _variant_spec(
        "score-uniform", "score-driven", lambda sel, o: uniform(sel, "score-uniform"),
        "a threshold drawn uniformly, ignoring c_hat",
        reads_probabilities=True, label_free_breaks=True,
        not_predictable="ignores the cost proportion (a random-threshold baseline)",
    ),
    _variant_spec(
        "rate-uniform", "rate-driven", lambda sel, o: uniform(sel, "rate-uniform"),
        "a predicted-0 rate drawn uniformly, ignoring c_hat",
        interpolates=True,
        not_predictable="ignores the cost proportion (a random-rate baseline)",
    ),
    MethodSpec(
        "instance-uniform", lambda t, tr, o: instance_uniform(t),
        "one of the n + 1 instance cuts drawn uniformly, ignoring c_hat",
        not_predictable="ignores the cost proportion (a random-cut baseline)",
    ),
    _variant_spec(
        "score-driven-z", "score-driven",
        lambda sel, o: with_input_map(sel, "score-driven-z", *skew_map(o.skew_pi0)),
        "score-driven at the skew z(c_hat)",
        reads_probabilities=True, label_free_breaks=True, skew=True, predict="score",
    ),
    _variant_spec(
        "rate-driven-z", "rate-driven",
        lambda sel, o: with_input_map(sel, "rate-driven-z", *skew_map(o.skew_pi0)),
        "rate-driven at the skew z(c_hat)",
        skew=True, interpolates=True, predict="rate",
    ),
    MethodSpec(
        "test-optimal-aware", _aware("test-optimal"),
        "test-optimal at the posterior mean E[c | c_hat]",
        aware_of="test-optimal", oracle=True,
        not_predictable="needs the labels of the examples it predicts (an oracle)",
    ),
    MethodSpec(
        "train-optimal-aware", _aware("train-optimal"),
        "train-optimal at the posterior mean E[c | c_hat]",
        aware_of="train-optimal", needs_train=True, label_free_breaks=True, predict="lines",
        predict_as="test-optimal-aware",
    ),
    MethodSpec(
        "score-driven-aware", _aware("score-driven"),
        "score-driven at the posterior mean E[c | c_hat]",
        aware_of="score-driven", reads_probabilities=True, label_free_breaks=True,
        predict="score",
    ),
    _variant_spec(
        "score-fixed", "score-driven",
        lambda sel, o: fixed(sel, _fixed_threshold(o), "score-fixed", what="the fixed threshold"),
        "one threshold whatever c_hat (default E[c])",
        reads_probabilities=True, label_free_breaks=True, predict="score",
        fixed_input=_fixed_threshold,
    ),
    _variant_spec(
        "rate-fixed", "rate-driven",
        lambda sel, o: fixed(sel, _fixed_rate(o), "rate-fixed", what="the fixed rate"),
        "one predicted-0 rate whatever c_hat (default E[c])",
        interpolates=True, predict="rate", fixed_input=_fixed_rate,
    ),
)
for _spec in _BUILTIN:
    register_method(_spec)
del _spec

#: the built-in methods' names, in display order
BUILTIN_METHODS: tuple[str, ...] = tuple(spec.name for spec in _BUILTIN)
#: The four methods the paper evaluates (Sect. 4), in the order of its tables: test-optimal,
#: train-optimal, score-driven, rate-driven. The library's default selection of methods
#: (e.g. of :func:`~threshold_choice.evaluation.expected_losses`).
PAPER_METHODS: tuple[str, ...] = ("test-optimal", "train-optimal", "score-driven", "rate-driven")


__all__ = [
    "BUILTIN_METHODS",
    "GAMMA_AWARE",
    "LABEL_FREE_BREAKS",
    "METHODS",
    "NEEDS_TRAIN",
    "ORACLES",
    "PAPER_METHODS",
    "PREDICTABLE",
    "PROBABILITY_METHODS",
    "Builder",
    "MethodNames",
    "MethodSpec",
    "PredictRule",
    "SelectionOptions",
    "derive_selection",
    "make_selection",
    "method_spec",
    "probability_problem",
    "register_method",
    "unregister_method",
    "variant",
]
