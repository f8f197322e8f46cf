"""Human-readable progress and summaries, for stderr."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.config import SandboxConfig

if TYPE_CHECKING:
    from artemiskit import SessionEvent
    from artemiskit.records import ExecutionRecord

__all__ = ["describe_event", "hint_for", "summarize"]

#: Execution reasons whose remedy the record cannot carry (it keeps reasons only).
_SANDBOX_REASONS = frozenset({"sandbox_image_missing", "sandbox_engine_unreachable"})


def describe_event(event: SessionEvent) -> str | None:
    """One progress line for an event, or ``None`` for events not worth a line."""
    if event.type == "run_started":
        return f"run {event.run_id} started"
    if event.type == "environment_ready":
        return "environment ready"
    if event.type == "turn_started":
        return f"turn {(event.turn or 0) + 1} started"
    if event.type == "operation_admitted":
        what = event.tool or "model request"
        return f"{event.operation_id} admitted: {what}"
    if event.type == "tool_denied":
        return f"tool call denied: {event.tool or 'undeclared tool'} ({event.reason})"
    if event.type == "execution_stopped":
        return f"execution stopped: {event.status} ({event.reason})"
    if event.type == "cleanup_finished":
        return f"cleanup {event.status}"
    return None


def hint_for(reason: str | None, sandbox: SandboxConfig | None = None) -> str | None:
    """What to do about an execution stopped for ``reason``, or ``None``.

    A missing sandbox image or an unreachable Docker Engine is exit 3 with a hint
    that names the configured image and says how to build it (docs/sandbox.md);
    the engine address is ``DOCKER_HOST`` or the local socket.
    """
    if reason not in _SANDBOX_REASONS:
        return None
    sandbox = sandbox or SandboxConfig()
    if reason == "sandbox_engine_unreachable":
        return (
            "no Docker Engine answers (DOCKER_HOST or the local socket); start it "
            f"(e.g. `bash scripts/ci-docker.sh`). {sandbox.install_hint()}"
        )
    return f"the sandbox image is not installed. {sandbox.install_hint()}"


def summarize(record: ExecutionRecord, *, sandbox: SandboxConfig | None = None) -> str:
    """A short multi-line summary of a record.

    ``sandbox`` (the trusted settings; default: none configured) names the image a
    sandbox hint is about.
    """
    used = record.budget.used
    lines = [
        f"execution: {record.execution.status} ({record.execution.reason})",
    ]
    hint = hint_for(record.execution.reason, sandbox)
    if hint is not None:
        lines.append(f"hint: {hint}")
    lines += [
        f"task verification: {record.task_verification.status}",
        f"actions {used.actions}, model requests {used.model_requests}, "
        f"tool calls {used.tool_calls}, usage {record.budget.usage_measurement}",
        f"policy denials: {record.policy.denials}; cleanup: {record.cleanup.status}",
        f"exit code: {record.exit_code}",
    ]
    for requirement in record.task_verification.requirements:
        lines.append(f"  {requirement.id}: {requirement.status} ({requirement.reason})")
    return "\n".join(lines)
