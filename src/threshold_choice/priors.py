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
    """Adjust posteriors to a new class prior (Elkan's adjustment).

    The posterior ``P(class 1 | x)`` under the class-1 proportion ``deploy_prior``, from
    ``p`` under ``train_prior``, the class-conditional likelihoods unchanged (Bayes' rule on
    the odds: ``p' = z p (1 - pi) / (z p (1 - pi) + (1 - z)(1 - p) pi)``; see the module
    docstring for the paper's Eq. 6).

    Parameters
    ----------
    p : array-like of float
        Posteriors of class 1 under ``train_prior``, in [0, 1].
    train_prior : float
        The class-1 proportion the posteriors were made under (``pi``), in (0, 1).
    deploy_prior : float
        The class-1 proportion of the deployment (``z``), in (0, 1).

    Returns
    -------
    ndarray
        The adjusted posteriors, in the shape of ``p``.

    Raises
    ------
    UserError
        For a prior outside (0, 1) or a posterior outside [0, 1].

    See Also
    --------
    prior_change_cost : The cost proportion a prior change amounts to.

    Examples
    --------
    >>> from threshold_choice import adjust_posterior
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
    """Compute the cost proportion a change of class prior amounts to.

    The threshold on posteriors made under the training prior that decides as ``1/2`` does
    under the deployment prior (the point where the adjusted posterior is 1/2; the paper's
    Eq. 7, its ``psi``). Balanced training and 20% of class 1 at deployment: ``c = 0.8``
    (class 1 predicted only above 0.8).

    Parameters
    ----------
    train_prior : float
        The class-1 proportion of the training data, in (0, 1).
    deploy_prior : float
        The class-1 proportion of the deployment, in (0, 1).

    Returns
    -------
    float
        The cost proportion ``c``, the threshold on the training posteriors.

    Raises
    ------
    UserError
        For a prior outside (0, 1).

    See Also
    --------
    adjust_posterior : The posteriors under the deployment prior.

    Examples
    --------
    >>> from threshold_choice import prior_change_cost
    >>> round(prior_change_cost(0.5, 0.2), 6)
    0.8
    """
    pi, z = check_prior(train_prior), check_prior(deploy_prior)
    # p' = 1/2  <=>  z p (1 - pi) = (1 - z)(1 - p) pi
    return (1.0 - z) * pi / ((1.0 - z) * pi + z * (1.0 - pi))


def skew_density(z: ArrayLike, pi0: float,
                 cost_distribution: CostDistribution | str = "uniform") -> FloatArray:
    """Compute the density of the skew when the cost proportion has a given density.

    The skew is ``z = c pi0 / (c pi0 + (1 - c)(1 - pi0))``; its density is
    ``w(psi(z)) pi0 pi1 / (pi1 z + pi0 (1 - z))^2`` (paper ``004_...``, Lemma 1), ``psi``
    the inverse map and ``w`` the density of ``c``. For a uniform ``c`` its median is
    ``z = pi0``.

    Parameters
    ----------
    z : array-like of float
        Skews in [0, 1].
    pi0 : float
        The class-0 proportion of the skew map, in (0, 1).
    cost_distribution : CostDistribution or str, default="uniform"
        The density ``w`` of ``c`` (or its spec).

    Returns
    -------
    ndarray
        The density of ``z``, in the shape of ``z``.

    Raises
    ------
    UserError
        For ``pi0`` outside (0, 1) or an invalid ``cost_distribution``.

    See Also
    --------
    threshold_choice.parse_cost_distribution : The specs of ``cost_distribution``.

    Examples
    --------
    >>> from threshold_choice import skew_density
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
