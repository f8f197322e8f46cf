"""The built-in tool catalogue of SPEC 3.1."""

from __future__ import annotations

from artemiskit.tools._catalogue import CATALOGUE, ToolSpec

__all__ = ["CATALOGUE", "ToolSpec"]
