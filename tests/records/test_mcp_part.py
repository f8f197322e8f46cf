"""The record's optional ``mcp`` part (SPEC 24): it round-trips, absent without MCP."""

from __future__ import annotations

import attrs

from artemiskit.records import (
    McpInfo,
    McpServerInfo,
    McpToolInfo,
    record_from_dict,
    record_to_dict,
)
from tests._builders import workflow_dict
from tests._runs import run


async def test_the_mcp_part_round_trips_and_is_absent_without_mcp_tools() -> None:
    result = await run(workflow_dict(outcomes=[]))
    plain = record_to_dict(result.record)
    assert "mcp" not in plain
    assert record_from_dict(plain) == result.record
    info = McpInfo(
        servers=(McpServerInfo(name="notes", transport="stdio", lifetime="suite"),),
        tools=(
            McpToolInfo(
                name="read_note", server="notes", schema_digest="sha256:" + "a" * 64
            ),
        ),
    )
    with_mcp = attrs.evolve(result.record, mcp=info)
    data = record_to_dict(with_mcp)
    assert data["mcp"]["servers"][0]["lifetime"] == "suite"
    assert record_from_dict(data) == with_mcp
