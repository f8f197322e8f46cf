"""Repeated keys in user JSON: refused by `unique_keys`, found by position."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, strategies as st

from artemiskit._common._json import (
    DuplicateKeyError,
    duplicate_key_position,
    unique_keys,
)

_KEYS = st.text(max_size=6)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4)
    ),
    max_leaves=20,
)


@given(_VALUES, st.booleans())
def test_text_without_repeated_keys_has_no_position(
    value: Any, ascii_only: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=1)
    assert json.loads(text, object_pairs_hook=unique_keys) == value
    assert duplicate_key_position(text) is None


@given(_VALUES, _KEYS, st.integers(min_value=0, max_value=3))
def test_a_repeated_key_is_found_where_it_repeats(
    value: Any, key: str, depth: int
) -> None:
    # {"k": value, "k": value} nested `depth` lists deep, after some text
    inner = json.dumps(value, indent=1)
    encoded = json.dumps(key)
    text = "[" * depth + "{" + f"{encoded}: {inner},\n {encoded}: 0" + "}" + "]" * depth
    with pytest.raises(DuplicateKeyError):
        json.loads(text, object_pairs_hook=unique_keys)
    position = duplicate_key_position(text)
    assert position is not None
    line, column = position
    start = sum(len(x) + 1 for x in text.split("\n")[: line - 1]) + column - 1
    assert text[start:].startswith(encoded)
    assert line == inner.count("\n") + 2
