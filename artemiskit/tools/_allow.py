"""Resource permissions: does a call's resource fall inside the tool's ``allow``?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._glob import glob_matches
from artemiskit._common._paths import path_problem

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from artemiskit.workflow._model import ToolAllow

__all__ = ["allow_problem", "glob_matches", "matches_any"]


def matches_any(patterns: Iterable[str] | None, value: str) -> bool:
    """Whether any glob of ``patterns`` matches (no patterns: nothing matches)."""
    return patterns is not None and any(glob_matches(p, value) for p in patterns)


def _normalized(path: str) -> str:
    return "/".join(s for s in path.split("/") if s not in ("", "."))


def allow_problem(
    tool: str, allow: ToolAllow, arguments: Mapping[str, Any]
) -> str | None:
    """Return a denial reason code if the call's resource is outside ``allow``.

    Listing and search tools are filtered rather than denied; only their directory
    argument is checked for the path rules.
    """
    if tool in ("read_file", "write_file", "delete_file"):
        path = arguments["path"]
        if path_problem(path) is not None:
            return "invalid_path"
        return (
            None if matches_any(allow.paths, _normalized(path)) else "path_not_allowed"
        )
    if tool == "list_files":
        directory = arguments.get("directory")
        if isinstance(directory, str) and directory not in ("", ".", "./"):
            return "invalid_path" if path_problem(directory) is not None else None
        return None
    if tool == "read_document":
        return None if matches_any(allow.ids, arguments["id"]) else "id_not_allowed"
    if tool in ("get_record", "update_record"):
        if not matches_any(allow.tables, arguments["table"]):
            return "table_not_allowed"
        if allow.ids is not None and not matches_any(allow.ids, arguments["id"]):
            return "id_not_allowed"
        if tool == "update_record" and allow.fields is not None:
            for field in arguments["fields"]:
                if not matches_any(allow.fields, field):
                    return "field_not_allowed"
        return None
    if tool == "draft_message":
        allowed = matches_any(allow.recipients, arguments["to"])
        return None if allowed else "recipient_not_allowed"
    if tool == "request_approval":
        allowed = matches_any(allow.actions, arguments["action"])
        return None if allowed else "action_not_allowed"
    if tool == "delegate_task":
        allowed = matches_any(allow.assignees, arguments["assignee"])
        return None if allowed else "assignee_not_allowed"
    return None
