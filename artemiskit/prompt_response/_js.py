"""JavaScript's text forms of values, as the TypeScript ArtemisKit printed them.

Scenario variables are substituted with JS ``String()`` (``true``, ``1`` for YAML
``1.0``) and several reasons use ``Number.prototype.toFixed``; Python's own
formatting differs, so the port formats through these helpers.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

__all__ = ["js_string", "to_fixed"]

#: ``toFixed`` formats magnitudes from here on as ``String()`` does (ECMA-262).
_FIXED_LIMIT = 1e21
_FIXED_LIMIT_DIGITS = 22


def _js_number(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign, digit_tuple, exponent = Decimal(repr(float(value))).normalize().as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(str(d) for d in digit_tuple)
    count = len(digits)
    point = count + exponent
    prefix = "-" if sign else ""
    if count <= point <= 21:
        return prefix + digits + "0" * (point - count)
    if 0 < point <= 21:
        return prefix + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return prefix + "0." + "0" * (-point) + digits
    power = point - 1
    mark = "+" if power > 0 else "-"
    mantissa = digits if count == 1 else digits[0] + "." + digits[1:]
    return f"{prefix}{mantissa}e{mark}{abs(power)}"


def js_string(value: object) -> str:
    """Format ``value`` as JavaScript's ``String(value)`` would.

    Args:
        value: A string, boolean, integer or float from a scenario.

    Returns:
        ``"true"``/``"false"`` for booleans, JS number formatting for numbers
        (``1.0`` → ``"1"``, ``1e-7`` → ``"1e-7"``), strings unchanged.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _js_number(value)
    if value is None:
        return "null"
    return str(value)


def to_fixed(value: float, digits: int) -> str:
    """Format ``value`` as JavaScript's ``value.toFixed(digits)`` (half away from 0).

    As in JavaScript, a value that is not finite or whose magnitude is at least
    1e21 is formatted as ``String(value)`` (``"1e+21"``, ``"Infinity"``).
    """
    value = float(value)
    if not math.isfinite(value) or abs(value) >= _FIXED_LIMIT:
        return _js_number(value)
    quantum = Decimal(1).scaleb(-digits)
    # Up to 21 digits before the point and `digits` after it, exactly.
    context = Context(prec=_FIXED_LIMIT_DIGITS + digits)
    rounded = Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP, context=context)
    return f"{rounded:f}"
