"""Hostile YAML values: huge integers (in any base) and lone surrogate escapes.

`hostile` puts one of `HOSTILE` at a value or key position (see `positions`) of a
document; the hostile-value tests of the workflow, the script and the configuration
loaders (SPEC 11) use them. `ANY_JSON` draws any small JSON value, for fuzzing what
a hand edit may put anywhere in a file.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from hypothesis import settings, strategies as st

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit import Problem

ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
"""Any small JSON value (NaN and infinities included, as Python's ``json`` writes)."""

MARK = "__HOSTILE__"
HOSTILE = [
    "0x" + "f" * 5000,
    "-0x" + "F_f" * 2000,
    "0o" + "7" * 6000,
    "0b" + "1" * 15000,
    "9" * 4301,
    "9" * 5000,
    '"\\ud800"',
    '"docs/\\udfff.md"',
    '"a\\ud800/b"',
]


def positions(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every value position (``(*path,)``) and key position (``(*path, KEY)``)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found += [(*prefix, key), (*prefix, key, KEY)]
            found += positions(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.append((*prefix, index))
            found += positions(value, (*prefix, index))
    return found


KEY = object()


def hostile(data: dict[str, Any], position: tuple[Any, ...], raw: str) -> str:
    """``data`` as JSON text (valid YAML) with ``raw`` at ``position``."""
    copied = copy.deepcopy(data)
    *parents, last = position
    if last is KEY:
        *parents, last = parents
        parent: Any = copied
        for part in parents:
            parent = parent[part]
        parent[MARK] = parent.pop(last)
    else:
        parent = copied
        for part in parents:
            parent = parent[part]
        parent[last] = MARK
    return json.dumps(copied, indent=1).replace(json.dumps(MARK), raw)


def located(problems: Sequence[Problem]) -> None:
    """Every problem has a line and a column."""
    assert problems
    assert all(p.line is not None and p.column is not None for p in problems)


SETTINGS = settings(max_examples=150, deadline=None, database=None)
