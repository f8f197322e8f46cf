"""The top-level workflow keys that give a workflow its cases (SPEC section 19).

Kept apart so that the cold checks, the expansion and the loaders name them from
one place without importing one another.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CASE_KEYS"]

#: ``cases:`` (inline) or ``dataset:`` (a file); no expansion holds them.
CASE_KEYS: Final = ("cases", "dataset")
