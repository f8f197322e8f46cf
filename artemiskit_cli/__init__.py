"""The ``akit`` command line: a thin front end over the public `artemiskit` SDK."""

from __future__ import annotations

__all__: list[str] = []
