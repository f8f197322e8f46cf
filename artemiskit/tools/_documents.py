"""Document tools over the detached local state: read one, search many."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit.tools._tool import (
    BuiltinTool,
    Tool,
    ToolContext,
    ToolFailure,
    ToolResult,
    matches_any,
)
from artemiskit.workflow._interfaces import BUILTIN_INTERFACES

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DOCUMENT_TOOLS"]


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
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["read_document"], handler=read_document
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["search_documents"], handler=search_documents
    ),
)
