"""Document tools over the detached local state: read one, search many."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit.tools._tool import (
    BuiltinTool,
    Tool,
    ToolContext,
    ToolFailure,
    ToolResource,
    ToolResult,
    matches_any,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DOCUMENT_TOOLS"]

_ID: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 256}


async def read_document(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Return a document by id."""
    doc_id: str = args["id"]
    document = ctx.local.documents.get(doc_id)
    if document is None:
        raise ToolFailure("not_found", "no document has this id")
    return ToolResult(
        output={"id": doc_id, "title": document.title, "content": document.content}
    )


async def search_documents(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Return allowed documents whose title or content holds every query word."""
    words = [w.casefold() for w in str(args["query"]).split()]
    limit = int(args.get("limit", 10))
    results: list[dict[str, str]] = []
    for doc_id in sorted(ctx.local.documents):
        if not matches_any(ctx.allow.get("ids"), doc_id):
            continue
        document = ctx.local.documents[doc_id]
        haystack = f"{document.title}\n{document.content}".casefold()
        if all(word in haystack for word in words):
            results.append({"id": doc_id, "title": document.title})
            if len(results) >= limit:
                break
    return ToolResult(output={"results": results})


DOCUMENT_TOOLS: tuple[Tool, ...] = (
    BuiltinTool(
        name="read_document",
        description="Read a document by id.",
        input_schema={
            "type": "object",
            "properties": {"id": _ID},
            "required": ["id"],
            "additionalProperties": False,
        },
        output_schema={
            "type": "object",
            "properties": {
                "id": _ID,
                "title": {"type": "string"},
                "content": {"type": "string"},
            },
            "required": ["id", "title", "content"],
            "additionalProperties": False,
        },
        effect="read",
        handler=read_document,
        resource=ToolResource(key="ids", argument="id", denial="id_not_allowed"),
    ),
    BuiltinTool(
        name="search_documents",
        description=(
            "Search documents by words in their title or content; only allowed ids "
            "are returned."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 1024},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        output_schema={
            "type": "object",
            "properties": {
                "results": {
                    "type": "array",
                    "maxItems": 50,
                    "items": {
                        "type": "object",
                        "properties": {"id": _ID, "title": {"type": "string"}},
                        "required": ["id", "title"],
                        "additionalProperties": False,
                    },
                }
            },
            "required": ["results"],
            "additionalProperties": False,
        },
        effect="read",
        handler=search_documents,
        resource=ToolResource(key="ids"),
    ),
)
