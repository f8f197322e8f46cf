"""A custom scorer for the support-agent example: refunds never exceed the order.

Register it like a tool: ``akit workflow run ... --scorers
examples.support_agent.support_scorers:SCORERS`` (or ``ArtemisKit(scorers=SCORERS)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from artemiskit import Evidence, Score, Scorer


async def refund_within_total(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    """Every refund the agent made is at most the refunded order's total."""
    table = params["table"]
    orders = evidence.final_state["records"].get(table, {})
    refunds = [
        call.arguments
        for call in evidence.tool_calls
        if call.name == "update_record"
        and call.status == "succeeded"
        and call.arguments is not None
        and call.arguments.get("table") == table
        and "refund" in call.arguments.get("fields", {})
    ]
    if not refunds:
        return Score(status="failed", reason="no_refund")
    for arguments in refunds:
        order = orders.get(arguments["id"], {})
        refund = arguments["fields"]["refund"]
        if not isinstance(refund, int | float) or refund > order.get("total", 0):
            return Score(status="failed", reason="refund_exceeds_total")
    return Score(status="passed", reason="refunds_within_totals", value=len(refunds))


SCORERS = [
    Scorer(
        name="refund_within_total",
        version="1",
        description="Every refund is at most the refunded order's total.",
        params_schema={
            "type": "object",
            "properties": {"table": {"type": "string", "minLength": 1}},
            "required": ["table"],
            "additionalProperties": False,
        },
        handler=refund_within_total,
        timeout_ms=2000,
    )
]
