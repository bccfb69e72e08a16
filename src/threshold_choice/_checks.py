"""The one check of a numeric parameter: a number in a range, or a :class:`UserError` saying so."""

from __future__ import annotations

import math
import reprlib

from threshold_choice.errors import UserError


def number_in(value: object, name: str, low: float, high: float, *, closed: str = "",
              allowed: str | None = None) -> float:
    """``value`` as a float in the interval from ``low`` to ``high``, open at both ends but
    those ``closed`` names (``"low"``, ``"high"``, ``"both"``), or a one-line
    :class:`UserError` naming it: ``"{name} must be a number in {allowed}, got {value!r}"``,
    ``allowed`` the interval (``"[0, 1)"``) unless given in words, the value shortened when
    long. Text that reads as a number is taken; anything else, and NaN (in no interval), is
    refused."""
    low_in, high_in = closed in ("low", "both"), closed in ("high", "both")
    try:
        v = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int beyond the floats
        v = math.nan
    if not ((v >= low if low_in else v > low) and (v <= high if high_in else v < high)):
        if allowed is None:
            allowed = f"{'[' if low_in else '('}{low:g}, {high:g}{']' if high_in else ')'}"
        # reprlib: a value of thousands of digits or characters is shown cut, on one line
        raise UserError(f"{name} must be a number in {allowed}, got {reprlib.repr(value)}")
    return v
