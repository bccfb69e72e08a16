"""Exceptions whose message tells the user what is wrong and how to fix it."""

from __future__ import annotations


class UserError(ValueError):
    """Bad input or configuration: the message names the problem and the fix."""
