"""Human-readable progress and summaries, for stderr."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from artemiskit import ArtemisError, Problem, SessionEvent
    from artemiskit.environments import SandboxConfig
    from artemiskit.records import ExecutionRecord

__all__ = [
    "describe_event",
    "error_text",
    "hint_for",
    "printable",
    "problem_line",
    "summarize",
    "why_line",
]

#: Characters a terminal would act on or that reorder what a reader sees.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _hidden(character: str) -> bool:
    code = ord(character)
    return (
        code < 0x20
        or 0x7F <= code <= 0x9F
        or 0xD800 <= code <= 0xDFFF
        or character in _BIDI_CONTROLS
    )


def printable(value: object) -> str:
    r"""``value`` fit for one line of a terminal, piped or not.

    Every control character (C0 with newline and tab, DEL, C1), lone surrogate
    and bidirectional control becomes a visible escape such as ````, so a
    workflow name can never move the cursor, set the window title, print a
    hyperlink or reorder the line. The terminal's one escaping home, as
    ``artemiskit._common._escaping`` is the exports': every message naming a
    user path (a file name may hold any character but ``/``), a name from a
    file or a model's text shows it through this function, on one line.
    """
    text = str(value)
    if not any(_hidden(c) for c in text):
        return text
    return "".join(
        (f"\\x{ord(c):02x}" if ord(c) <= 0xFF else f"\\u{ord(c):04x}")
        if _hidden(c)
        else c
        for c in text
    )


#: Execution reasons whose remedy the record cannot carry (it keeps reasons only).
_SANDBOX_REASONS = frozenset({"sandbox_image_missing", "sandbox_engine_unreachable"})


def error_text(exc: ArtemisError) -> str:
    """An SDK error's message, `printable`.

    On one line, except the sandbox's remedies, which span lines (the image's
    build commands) and name no user file: their own line breaks are kept.
    """
    if exc.reason in _SANDBOX_REASONS:
        return "\n".join(printable(line) for line in exc.message.split("\n"))
    return printable(exc.message)


def problem_line(problem: Problem, fallback: str | None = None) -> str:
    """One problem as ``FILE:LINE:COL: KEY-PATH: rule`` (line and column when known).

    A dataset line without a column (JSONL, CSV) prints as ``FILE:LINE:``.

    Every command prints a problem this way, so `scenario validate` and `workflow
    run` show the same problem identically; the file name and every other part
    are shown `printable` (one line).
    """
    where = problem.source or fallback or "<input>"
    if problem.line is not None:
        where += f":{problem.line}"
        if problem.column is not None:
            where += f":{problem.column}"
    return printable(f"{where}: {problem.path}: {problem.message}")


_USAGE_HINT = (
    "the target reported no token usage and budgets.max_tokens is set, so the run "
    "cannot go on unmeasured. A scripted target reports usage only when its entry "
    "has `usage: {input_tokens: N, output_tokens: M}`: add it to every entry of the "
    "script (docs/workflow-contract.md), or drop budgets.max_tokens."
)


def describe_event(event: SessionEvent) -> str | None:
    """One progress line for an event, or ``None`` for events not worth a line.

    A denied call's tool name is the model's: shown `printable`.
    """
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
        tool = printable(event.tool or "undeclared tool")
        return f"tool call denied: {tool} ({event.reason})"
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
    from artemiskit.environments import SandboxConfig

    sandbox = sandbox or SandboxConfig()
    if reason == "sandbox_engine_unreachable":
        return (
            "no Docker Engine answers (DOCKER_HOST or the local socket); start it "
            f"(e.g. `bash scripts/ci-docker.sh`). {sandbox.install_hint()}"
        )
    return f"the sandbox image is not installed. {sandbox.install_hint()}"


def why_line(record: ExecutionRecord) -> str:
    """``why: <id or reason> (<reason code>)``: the cause of a run that did not pass.

    Every view (this summary, the suite summary, JUnit, Markdown, reports, the
    pytest plugin) shows a cause in these words. A record from before schema
    version 4 never recorded one.
    """
    why = record.verdict.why
    return f"why: {'not recorded' if why is None else why.text}"


def summarize(
    record: ExecutionRecord,
    failure: str | None = None,
    *,
    sandbox: SandboxConfig | None = None,
) -> str:
    """A short multi-line summary of a record.

    Args:
        record: The execution record.
        failure: What stopped the run (`WorkflowResult.failure`): the reason and
            the target's host, which the metadata-only record does not keep.
        sandbox: The trusted sandbox settings (default: none configured), which
            name the image a sandbox hint is about.
    """
    used = record.budget.used
    lines = [
        f"execution: {record.execution.status} ({record.execution.reason})",
    ]
    if failure is not None:
        lines.append(f"cause: {printable(failure)}")
    hint = hint_for(record.execution.reason, sandbox)
    if hint is not None:
        lines.append(f"hint: {hint}")
    elif record.execution.reason == "usage_unavailable":
        lines.append(f"hint: {_USAGE_HINT}")
    retries = record.target.provider_retries
    requests = f"model requests {used.model_requests}" + (
        f" ({retries} accounted provider retr{'y' if retries == 1 else 'ies'})"
        if retries
        else ""
    )
    verdict = record.verdict
    lines += [
        f"verdict: {verdict.status}",
        *([] if verdict.status == "passed" else [why_line(record)]),
        f"task verification: {record.task_verification.status}",
        f"actions {used.actions}, {requests}, "
        f"tool calls {used.tool_calls}, usage {record.budget.usage_measurement}",
        f"policy denials: {record.policy.denials}; cleanup: {record.cleanup.status}",
        f"exit code: {record.exit_code}",
    ]
    for requirement in record.task_verification.requirements:
        lines.append(f"  {requirement.id}: {requirement.status} ({requirement.reason})")
    return "\n".join(lines)
