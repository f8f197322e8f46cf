"""The operation ledger type: numbering, settling, bounding."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from artemiskit.engine._ledger import Ledger
from artemiskit.engine._state import SessionState


def admitted(count: int, *, limit: int = 100) -> Ledger:
    ledger = Ledger()
    for _ in range(count):
        ledger, _ = ledger.admit("tool_call", tool="read_file", limit=limit)
    return ledger


def test_admit_numbers_operations_and_records_what_they_are() -> None:
    ledger, first = Ledger().admit("model_request")
    ledger, second = ledger.admit("tool_call", tool="read_file", attempt=2)
    assert (first, second) == ("op-000001", "op-000002")
    assert ledger.next_number == 3
    assert [(op.kind, op.tool, op.attempt, op.status) for op in ledger.operations] == [
        ("model_request", None, 1, "admitted"),
        ("tool_call", "read_file", 2, "admitted"),
    ]


def test_settling_the_latest_keeps_every_earlier_entry_as_is() -> None:
    before = admitted(3)
    after = before.settle("op-000003", "failed", "fault_timeout")
    assert after.operations[-1].status == "failed"
    assert after.operations[-1].reason == "fault_timeout"
    assert all(
        old is new
        for old, new in zip(before.operations[:-1], after.operations[:-1], strict=True)
    )


def test_an_older_operation_can_still_be_settled() -> None:
    ledger = admitted(3).settle("op-000001", "unknown", "interrupted")
    assert [op.status for op in ledger.operations] == [
        "unknown",
        "admitted",
        "admitted",
    ]
    assert [op.id for op in ledger.unsettled()] == ["op-000002", "op-000003"]


def test_settling_an_operation_no_longer_kept_changes_nothing() -> None:
    ledger = admitted(3, limit=2)
    assert ledger.settle("op-000001", "succeeded") is ledger
    assert Ledger().settle("op-000001", "succeeded") == Ledger()


def test_a_full_ledger_drops_the_oldest_and_counts_them() -> None:
    ledger = admitted(5, limit=2)
    assert [op.id for op in ledger.operations] == ["op-000004", "op-000005"]
    assert ledger.omitted == 3
    assert ledger.total == 5
    assert ledger.next_number == 6


def test_the_ledger_reads_and_writes_the_session_state_fields() -> None:
    ledger = admitted(2).settle("op-000002", "succeeded")
    state = SessionState(**ledger.fields())
    assert state.ledger == ledger.operations
    assert state.next_operation == 3
    assert Ledger.of(state) == ledger


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(min_value=1, max_value=30)), max_size=30),
    st.integers(min_value=1, max_value=8),
)
def test_the_ledger_matches_a_plain_list_model(
    steps: list[int | None], limit: int
) -> None:
    """``None`` admits an operation; a number settles the operation of that number."""
    ledger = Ledger()
    model: list[tuple[str, str]] = []
    dropped = 0
    for step in steps:
        if step is None:
            ledger, op_id = ledger.admit("model_request", limit=limit)
            model.append((op_id, "admitted"))
            if len(model) > limit:
                dropped += len(model) - limit
                model = model[-limit:]
        else:
            op_id = f"op-{step:06d}"
            ledger = ledger.settle(op_id, "succeeded")
            model = [(i, "succeeded" if i == op_id else s) for i, s in model]
    assert [(op.id, op.status) for op in ledger.operations] == model
    assert ledger.omitted == dropped
