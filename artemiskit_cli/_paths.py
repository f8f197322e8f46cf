"""`PathParam`: the type of every path option and argument of ``akit``.

A `click.Path` that refuses an empty value: ``--replay ""`` names no file, and
taken as given it would mean the current folder. Refused at parsing (exit 2),
before anything is read or written. Click's own messages show the value with
``repr``, so a control character in a path is never echoed raw.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["PathParam"]


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
