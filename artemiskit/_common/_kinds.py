"""What an ArtemisKit file is, so that each command refuses the other kind.

Prompt-response commands take scenarios and manifests; workflow commands take
workflows, execution records and suite records. A file of the other kind is
refused with exit 2 and a message that names what it is.
"""

from __future__ import annotations

from typing import Any

__all__ = ["describe_document", "is_manifest", "prompt_response_kind"]

_CONFIG_KEYS = frozenset(
    {"providers", "sandbox", "scenariosDir", "storage", "max_requests"}
)


def is_manifest(data: Any) -> bool:
    """Whether ``data`` is a prompt-response run manifest (any ``type``)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("run_id"), str)
        and isinstance(data.get("config"), dict)
        and isinstance(data.get("metrics"), dict)
        and "version" in data
        and "schema" not in data
    )


def describe_document(data: Any) -> str | None:
    """Name what ``data`` (a parsed JSON or YAML file) is, if ArtemisKit knows it.

    Returns:
        ``"a workflow record"``, ``"a suite record"``, ``"a workflow file"``,
        ``"a workflow script"``, ``"a prompt-response run manifest"``,
        ``"a baselines file"``, ``"a configuration file"`` or ``None``.
    """
    if not isinstance(data, dict):
        return None
    schema = data.get("schema")
    if schema == "artemiskit.workflow-record":
        return "a workflow record"
    if schema == "artemiskit.suite-record":
        return "a suite record"
    if isinstance(schema, str) and schema.startswith("artemiskit."):
        return f"an ArtemisKit {schema.removeprefix('artemiskit.')} file"
    if data.get("version") == 1 and ("conversation" in data or "target" in data):
        return "a workflow file"
    if data.get("version") == 1 and ("responses" in data or "variants" in data):
        return "a workflow script"
    if is_manifest(data):
        return "a prompt-response run manifest"
    if isinstance(data.get("baselines"), dict) and data.get("version") == "1.0":
        return "a baselines file"
    if "cases" not in data and _CONFIG_KEYS & set(data):
        return "a configuration file"
    return None


def prompt_response_kind(data: Any) -> str | None:
    """Name ``data`` when it is a prompt-response file, which no workflow command takes.

    Returns:
        ``"a prompt-response run manifest"``, ``"a prompt-response scenario"`` or
        ``None``.
    """
    if is_manifest(data):
        return "a prompt-response run manifest"
    if (
        isinstance(data, dict)
        and isinstance(data.get("cases"), list)
        and not {"conversation", "target", "schema"} & set(data)
    ):
        return "a prompt-response scenario"
    return None
