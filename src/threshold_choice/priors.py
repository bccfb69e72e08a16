"""Class-prior contexts (paper ``004_...``, Sect. 3): adjusting posteriors to a new class
prior, the cost proportion a prior change amounts to, and the density of the skew.

Conventions (the package's): a score is ``p = P(class 1 | x)``; priors are proportions of
class 1 unless named ``pi0``. The skew of :func:`threshold_choice.methods.skew_map` is
``z = c pi0 / (c pi0 + (1 - c) pi1)`` (the paper's Eq. 8 with its ``pi`` the class-0
proportion, its positive class being class 0).

Paper ``004_...`` prints Elkan's adjustment as ``p' = z (p - p pi) / (p - p pi + z p - pi
z)`` (Eq. 6), which does not return ``p`` when the prior does not change (``z = pi``: 1.5 for
``p = 0.3, pi = 0.5``); the middle expression of its Eq. 7 carries the same slip. Bayes'
rule gives ``p' = z p (1 - pi) / (z p (1 - pi) + (1 - z)(1 - p) pi)``, whose value at ``p =
1/2`` is Eq. 7's last (correct) expression. This module uses Bayes' rule; the tests show
both.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice._typing import FloatArray
from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.costlines import check_prior
from threshold_choice.errors import UserError
from threshold_choice.methods import skew_map


def adjust_posterior(p: ArrayLike, train_prior: float, deploy_prior: float) -> FloatArray:
    """Elkan's adjustment: the posterior ``P(class 1 | x)`` under the class-1 proportion
    ``deploy_prior``, from ``p`` under ``train_prior``, the class-conditional likelihoods
    unchanged (Bayes' rule on the odds; see the module docstring for the paper's Eq. 6).

    Examples
    --------
    >>> adjust_posterior([0.3, 0.5, 0.9], 0.5, 0.5).tolist()
    [0.3, 0.5, 0.9]
    >>> round(float(adjust_posterior(0.5, 0.5, 0.2)), 6)
    0.2
    """
    pi, z = check_prior(train_prior), check_prior(deploy_prior)
    p_arr = np.asarray(p, dtype=np.float64)
    if not np.all((p_arr >= 0) & (p_arr <= 1)):
        raise UserError("posteriors must lie in [0, 1]")
    up = z * p_arr * (1.0 - pi)
    return up / (up + (1.0 - z) * (1.0 - p_arr) * pi)


def prior_change_cost(train_prior: float, deploy_prior: float) -> float:
    """The cost proportion ``c`` a change of the class-1 proportion from ``train_prior`` to
    ``deploy_prior`` amounts to: the threshold on posteriors made under the training prior
    that decides as ``1/2`` does under the deployment prior (the point where the adjusted
    posterior is 1/2; the paper's Eq. 7, its ``psi``). Balanced training and 20% of class 1
    at deployment: ``c = 0.8`` (class 1 predicted only above 0.8).

    Examples
    --------
    >>> round(prior_change_cost(0.5, 0.2), 6)
    0.8
    """
    pi, z = check_prior(train_prior), check_prior(deploy_prior)
    # p' = 1/2  <=>  z p (1 - pi) = (1 - z)(1 - p) pi
    return (1.0 - z) * pi / ((1.0 - z) * pi + z * (1.0 - pi))


def skew_density(z: ArrayLike, pi0: float,
                 cost_distribution: CostDistribution | str = "uniform") -> FloatArray:
    """The density of the skew ``z = c pi0 / (c pi0 + (1 - c)(1 - pi0))`` when ``c`` has the
    density ``cost_distribution`` (paper ``004_...``, Lemma 1): ``w(psi(z)) pi0 pi1 / (pi1 z +
    pi0 (1 - z))^2`` with ``psi`` the inverse map. For a uniform ``c`` its median is
    ``z = pi0``.

    Examples
    --------
    >>> round(float(skew_density(0.25, 0.25)), 6)  # at the median: pi0 pi1 / (2 pi0 pi1)^2
    1.333333
    """
    pi0 = check_prior(pi0)
    pi1 = 1.0 - pi0
    z_arr = np.asarray(z, dtype=np.float64)
    _, psi = skew_map(pi0)  # the inverse of the skew map
    w = parse_cost_distribution(cost_distribution).pdf(psi(z_arr))
    return w * pi0 * pi1 / (pi1 * z_arr + pi0 * (1.0 - z_arr)) ** 2


__all__ = ["adjust_posterior", "prior_change_cost", "skew_density"]
