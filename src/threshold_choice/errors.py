"""Exceptions whose message tells the user what is wrong and how to fix it."""

from __future__ import annotations


class UserError(ValueError):
    """Bad input or configuration that the caller can fix.

    Every error a user can fix (labels that are not 0/1, scores out of range, an unknown
    method, a negative gamma, a bad cost distribution...) is raised as this exception, with
    a one-line message that names the problem and the fix; the command line prints the
    message and exits with status 2. A subclass of :class:`ValueError`, so code that catches
    ``ValueError`` also catches it.

    See Also
    --------
    threshold_choice.parse_gamma : One of the many functions that raise it.

    Examples
    --------
    >>> from threshold_choice import UserError, parse_gamma
    >>> try:
    ...     parse_gamma("-1")
    ... except UserError as error:
    ...     print(error)
    gamma must be a number >= 0 or 'inf', got '-1'
    >>> issubclass(UserError, ValueError)
    True
    """
