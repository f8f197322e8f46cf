"""The per-step state structures: the ledger's sequence and the state copy.

`Operations` lets a run append, settle and drop ledger entries without copying
the ledger, yet every state ever handed out keeps exactly what it held (the
checkpointer compares old and new states). `_replace` is the transitions' copy of
the session state and must build what ``attrs.evolve`` would.
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs
from hypothesis import given, settings, strategies as st

from artemiskit._common._converter import CONVERTER
from artemiskit.engine import _transitions as t
from artemiskit.engine._deltas import apply_delta, state_delta
from artemiskit.engine._ledger import append_operation
from artemiskit.engine._state import (
    Counters,
    Cursor,
    Operation,
    Operations,
    SessionState,
    Stop,
)


def op(number: int, status: str = "admitted") -> Operation:
    return Operation(id=f"op-{number:06d}", kind="tool_call", status=status)  # type: ignore[arg-type]


def test_an_earlier_view_never_sees_what_came_after_it() -> None:
    first = Operations().append(op(1))
    second = first.append(op(2))
    settled = second.replace_last(op(2, "succeeded"))
    third = settled.append(op(3))
    branch = second.append(op(9))  # second is no longer at the end: it branches
    assert tuple(first) == (op(1),)
    assert tuple(second) == (op(1), op(2))
    assert tuple(settled) == (op(1), op(2, "succeeded"))
    assert tuple(third) == (op(1), op(2, "succeeded"), op(3))
    assert tuple(branch) == (op(1), op(2), op(9))
    assert tuple(third.append(op(4))) == (*third, op(4))
    assert tuple(third) == (op(1), op(2, "succeeded"), op(3))


def test_it_reads_like_a_tuple() -> None:
    ops = Operations(op(n) for n in range(1, 6))
    assert len(ops) == 5
    assert ops[0] == op(1)
    assert ops[-1] == op(5)
    assert ops[1:3] == (op(2), op(3))
    whole = tuple(op(n) for n in range(1, 6))
    for part in (slice(-2, None), slice(None, None, 2), slice(3, 1), slice(None)):
        assert ops[part] == whole[part]
    assert list(reversed(ops)) == [op(n) for n in range(5, 0, -1)]
    assert ops == tuple(op(n) for n in range(1, 6))
    assert tuple(op(n) for n in range(1, 6)) == ops
    assert hash(ops) == hash(tuple(ops))
    assert op(3) in ops
    assert Operations() == ()
    assert not Operations()
    assert repr(ops) == "Operations(5 operations)"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["append", "settle", "drop"]), max_size=60))
def test_any_sequence_of_changes_matches_the_same_on_tuples(steps: list[str]) -> None:
    ops = Operations()
    mirror: tuple[Operation, ...] = ()
    history: list[tuple[Operations, tuple[Operation, ...]]] = []
    for number, step in enumerate(steps, start=1):
        if step == "append":
            ops, mirror = ops.append(op(number)), (*mirror, op(number))
        elif step == "settle" and mirror:
            ops = ops.replace_last(op(number, "succeeded"))
            mirror = (*mirror[:-1], op(number, "succeeded"))
        elif step == "drop":
            ops, mirror = ops.drop_first(2), mirror[2:]
        history.append((ops, mirror))
        assert ops == mirror
    for view, expected in history:
        assert tuple(view) == expected


def test_a_full_ledger_drops_its_oldest_entries() -> None:
    operations, omitted = Operations(), 0
    for number in range(1, 8):
        operations, omitted, _ = append_operation(
            operations, omitted, number, "tool_call", limit=3
        )
    assert [o.id for o in operations] == ["op-000005", "op-000006", "op-000007"]
    assert omitted == 4


def test_it_serializes_as_a_list_and_back() -> None:
    state = SessionState(ledger=Operations([op(1), op(2, "succeeded")]))
    data = CONVERTER.unstructure(state)
    assert data["ledger"] == [
        CONVERTER.unstructure(op(1)),
        CONVERTER.unstructure(op(2, "succeeded")),
    ]
    back = CONVERTER.structure(data, SessionState)
    assert isinstance(back.ledger, Operations)
    assert back == state


def test_deltas_of_a_growing_ledger_replay_exactly() -> None:
    state = SessionState()
    states = [state]
    for _ in range(5):
        state, op_id = t.admit_operation(state, kind="tool_call", tool="read_file")
        states.append(state)
        state = t.settle_operation(state, op_id, "succeeded")
        states.append(state)
    for old, new in itertools.pairwise(states):
        replayed = apply_delta(old, state_delta(old, new))
        assert replayed == new
        assert isinstance(replayed.ledger, Operations)


def test_the_state_has_no_validators_or_converters() -> None:
    # `_replace` copies slots without running __init__; that is only what
    # attrs.evolve builds while no field validates or converts.
    for field in attrs.fields(SessionState):
        assert field.validator is None, field.name
        assert field.converter is None, field.name


def test_replace_builds_what_attrs_evolve_builds() -> None:
    state = SessionState(
        cursor=Cursor(turn=1, step=2),
        counters=Counters(actions=3),
        ledger=Operations([op(1)]),
    )
    changes: dict[str, Any] = {
        "cursor": Cursor(turn=2),
        "completed": True,
        "stop": Stop(status="completed", reason="x", exit_code=0),
    }
    replaced = t._replace(state, **changes)
    assert replaced == attrs.evolve(state, **changes)
    assert type(replaced) is SessionState
    assert state.completed is False  # the original is untouched
