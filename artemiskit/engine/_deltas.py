"""Session-state deltas, so a checkpoint write costs the change, not the whole run.

Session state only ever grows at the end of its tuples (conversation, ledger, trace,
changes, denials) or replaces small fields. A delta names, per tuple field, the first
index that differs and the items from there on, and carries every other changed
field whole. Identity comparison makes computing it cheap: unchanged items are the
very same objects.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit.engine._state import Operations, SessionState

__all__ = ["apply_delta", "state_delta"]

_TUPLE_FIELDS = (
    "conversation",
    "pending_calls",
    "ledger",
    "trace",
    "changes",
    "denials",
)


@functools.cache
def _field_types() -> dict[str, Any]:
    attrs.resolve_types(SessionState)
    return {field.name: field.type for field in attrs.fields(SessionState)}


def _first_difference(old: tuple[Any, ...], new: tuple[Any, ...]) -> int:
    """The first index where ``new`` stops holding ``old``'s very items; -1 if none.

    Transitions only append to these tuples, replace their most recent items
    (settling the operation just admitted, answering the first pending call) or
    drop from the front of a full ledger. So the scan walks back from the end of
    the common part and stops at the first shared item, which keeps a commit's
    cost independent of the run's length; a dropped front item falls back to a
    full comparison.
    """
    common = min(len(old), len(new))
    if common and old[0] is not new[0]:
        return 0
    index = common
    while index > 0 and old[index - 1] is not new[index - 1]:
        index -= 1
    if index == common and len(old) == len(new):
        return -1
    return index


def state_delta(old: SessionState, new: SessionState) -> dict[str, Any]:
    """What changed from ``old`` to ``new``, as JSON-compatible data."""
    types = _field_types()
    delta: dict[str, Any] = {}
    tuples: dict[str, Any] = {}
    for field in attrs.fields(SessionState):
        before = getattr(old, field.name)
        after = getattr(new, field.name)
        if before is after:
            continue
        if field.name in _TUPLE_FIELDS:
            start = _first_difference(before, after)
            if start >= 0:
                tuples[field.name] = {
                    "from": start,
                    "items": CONVERTER.unstructure(after[start:], types[field.name]),
                }
        elif before != after:
            delta[field.name] = CONVERTER.unstructure(after, types[field.name])
    if tuples:
        delta["tuples"] = tuples
    return delta


def apply_delta(state: SessionState, delta: dict[str, Any]) -> SessionState:
    """Replay one delta onto ``state``."""
    types = _field_types()
    changes: dict[str, Any] = {}
    for name, spec in delta.get("tuples", {}).items():
        items = CONVERTER.structure(spec["items"], types[name])
        joined = (*getattr(state, name)[: spec["from"]], *items)
        changes[name] = Operations(joined) if name == "ledger" else joined
    for name, value in delta.items():
        if name != "tuples":
            changes[name] = CONVERTER.structure(value, types[name])
    return attrs.evolve(state, **changes)
