"""The parameter types of ``akit`` options and arguments that need more than click's.

- `PathParam`: a `click.Path` that refuses an empty value. ``--replay ""`` names
  no file, and taken as given it would mean the current folder.
- `FiniteFloatRange`: a `click.FloatRange` that refuses ``nan`` and ``inf``,
  which Python's ``float`` reads and which no range comparison catches (``nan``
  is neither below nor above any bound).

Both refuse at parsing (exit 2), before anything is read or written. Click's own
messages show a path with ``repr``, so a control character is never echoed raw.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["FiniteFloatRange", "PathParam"]


class PathParam(click.Path):
    """A `click.Path` (the same arguments) that refuses an empty path."""

    def convert(
        self,
        value: str | os.PathLike[str],
        param: click.Parameter | None,
        ctx: click.Context | None,
    ) -> str | bytes | Path | Any:
        """The path, once it is known not to be empty (else exit 2)."""
        if not os.fspath(value):
            self.fail(
                "an empty path names no file or folder (write . for this folder)",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)


class FiniteFloatRange(click.FloatRange):
    """A `click.FloatRange` (the same arguments) that refuses ``nan`` and ``inf``."""

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Any:
        """The number, once it is known to be finite and in range (else exit 2)."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number
