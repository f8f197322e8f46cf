"""The document family through the SDK: ``read_document`` and ``search_documents``.

Both are read tools over the detached local state: they answer the model and never
change state; ``allow.ids`` denies a ``read_document`` and filters a search.
"""

from __future__ import annotations

import copy
from typing import Any

from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import call, calling, run
from tests.tools._family import failures, output_of, run_with_events, tool_answers

SENTINEL = "SENTINEL-document-id-4c1e"
DOCUMENTS: dict[str, dict[str, str]] = {
    "policy-1": {"title": "Refund policy", "content": "Refunds within 30 days."},
    "policy-2": {"title": "Shipping", "content": "Refunds of shipping: never."},
    "policy-3": {"title": "Refund FAQ", "content": "Ask support."},
    "secret-1": {"title": "Refund margins", "content": "Internal."},
}


def documents(*tools: dict[str, Any]) -> dict[str, Any]:
    return workflow_dict(
        environment={"state": {"documents": copy.deepcopy(DOCUMENTS)}},
        tools=list(tools),
        outcomes=[],
    )


READ = {"name": "read_document", "allow": {"ids": ["policy-*"]}}
SEARCH = {"name": "search_documents", "allow": {"ids": ["policy-*"]}}


async def test_read_document_returns_the_document_and_changes_nothing() -> None:
    result = await run(
        documents(READ), [calling(call("read_document", {"id": "policy-1"}))]
    )
    assert result.record.execution.status == "completed"
    assert output_of(result, "read_document") == {
        "id": "policy-1",
        "title": "Refund policy",
        "content": "Refunds within 30 days.",
    }
    assert result.state is not None
    assert result.state["documents"] == DOCUMENTS
    assert result.record.state_changes.count == 0


async def test_read_document_of_a_missing_id_fails_as_not_found() -> None:
    missing = call("read_document", {"id": f"policy-{SENTINEL}"})
    result, events = await run_with_events(documents(READ), [calling(missing)])
    assert result.record.execution.status == "completed"
    ((error, answer),) = tool_answers(result)
    assert error
    assert answer["error"]["code"] == "not_found"
    assert failures(events) == ["not_found"]
    assert [(t.tool, t.failed) for t in result.record.tools] == [("read_document", 1)]
    assert SENTINEL not in str(record_to_dict(result.record))
    assert SENTINEL not in repr(events)


async def test_read_document_outside_allow_is_denied_before_it_runs() -> None:
    result = await run(
        documents(READ), [calling(call("read_document", {"id": f"x-{SENTINEL}"}))]
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 4
    assert record["policy"]["denial_reasons"] == {"id_not_allowed": 1}
    assert [t.tool for t in result.record.tools if t.denied] == ["read_document"]
    assert SENTINEL not in str(record)


async def test_search_matches_every_word_and_returns_only_allowed_ids() -> None:
    result = await run(
        documents(SEARCH), [calling(call("search_documents", {"query": "REFUNDS"}))]
    )
    assert result.record.execution.status == "completed"
    # secret-1 matches the word but is outside allow.ids: filtered, not denied.
    assert output_of(result, "search_documents") == {
        "results": [
            {"id": "policy-1", "title": "Refund policy"},
            {"id": "policy-2", "title": "Shipping"},
        ]
    }
    assert result.record.policy.denials == 0
    assert result.state is not None
    assert result.state["documents"] == DOCUMENTS
    assert result.record.state_changes.count == 0


async def test_search_needs_all_words_in_title_or_content() -> None:
    result = await run(
        documents(SEARCH),
        [calling(call("search_documents", {"query": "refund faq support"}))],
    )
    assert output_of(result, "search_documents") == {
        "results": [{"id": "policy-3", "title": "Refund FAQ"}]
    }


async def test_search_limit_bounds_the_results_in_id_order() -> None:
    wide = {"name": "search_documents", "allow": {"ids": ["*"]}}
    search = call("search_documents", {"query": "refund", "limit": 2})
    result = await run(documents(wide), [calling(search)])
    assert output_of(result, "search_documents") == {
        "results": [
            {"id": "policy-1", "title": "Refund policy"},
            {"id": "policy-2", "title": "Shipping"},
        ]
    }


async def test_search_without_a_match_is_an_empty_result() -> None:
    search = call("search_documents", {"query": SENTINEL})
    result = await run(documents(SEARCH), [calling(search)])
    assert output_of(result, "search_documents") == {"results": []}
    assert SENTINEL not in str(record_to_dict(result.record))


async def test_a_search_limit_outside_the_schema_is_a_denial() -> None:
    search = call("search_documents", {"query": "refund", "limit": 51})
    result = await run(documents(SEARCH), [calling(search)])
    record = record_to_dict(result.record)
    assert record["exit_code"] == 4
    assert record["policy"]["denial_reasons"] == {"invalid_arguments": 1}
