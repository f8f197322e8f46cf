"""The tools' local state: detached data kept in session state (and checkpoints).

The built-in document, record and message tools share `LocalState`'s typed fields;
every other tool that declares a state section owns ``sections[name]``, a JSON object.
Reprs show counts and statuses, never the content.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

__all__ = ["Approval", "Delegation", "Document", "Draft", "LocalState"]


@attrs.frozen(kw_only=True, repr=False)
class Document:
    """A document in the detached local state."""

    title: str
    content: str

    def __repr__(self) -> str:
        return "Document(<hidden>)"


@attrs.frozen(kw_only=True, repr=False)
class Draft:
    """A local draft message; never sent."""

    id: str
    to: str
    subject: str
    body: str
    status: Literal["draft"] = "draft"

    def __repr__(self) -> str:
        return f"Draft(id={self.id!r}, status={self.status!r})"


@attrs.frozen(kw_only=True, repr=False)
class Approval:
    """A local approval request; it stays pending."""

    id: str
    action: str
    reason: str
    status: Literal["pending"] = "pending"

    def __repr__(self) -> str:
        return f"Approval(id={self.id!r}, status={self.status!r})"


@attrs.frozen(kw_only=True, repr=False)
class Delegation:
    """A local delegated task; no agent runs it."""

    id: str
    assignee: str
    task: str
    status: Literal["pending"] = "pending"

    def __repr__(self) -> str:
        return f"Delegation(id={self.id!r}, status={self.status!r})"


@attrs.frozen(kw_only=True, repr=False)
class LocalState:
    """The detached state of the tools.

    Attributes:
        documents: Documents of ``read_document`` / ``search_documents``.
        records: Table → id → fields, of ``get_record`` / ``update_record``.
        drafts: Drafts of ``draft_message``.
        approvals: Requests of ``request_approval``.
        delegations: Records of ``delegate_task``.
        sections: Tool name → the section (a JSON object) that tool owns.
    """

    documents: dict[str, Document] = attrs.field(factory=dict)
    records: dict[str, dict[str, dict[str, Any]]] = attrs.field(factory=dict)
    drafts: tuple[Draft, ...] = ()
    approvals: tuple[Approval, ...] = ()
    delegations: tuple[Delegation, ...] = ()
    sections: dict[str, dict[str, Any]] = attrs.field(factory=dict)

    def __repr__(self) -> str:
        return (
            f"LocalState(documents={len(self.documents)}, "
            f"tables={len(self.records)}, drafts={len(self.drafts)}, "
            f"approvals={len(self.approvals)}, delegations={len(self.delegations)}, "
            f"sections={len(self.sections)})"
        )
