"""The workflow contract (SPEC section 3) as frozen attrs classes.

These classes hold a workflow that has already passed the JSON Schema and the semantic
checks; build them with `load_agent_workflow` / `parse_agent_workflow`, not by hand,
unless you know the contract holds.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit.tools._state import Document

__all__ = [
    "ALLOW_KEYS",
    "Budgets",
    "Conversation",
    "Document",
    "EnvironmentSpec",
    "Fault",
    "FaultKind",
    "FileOutcome",
    "FinalResponseCheck",
    "FinalResponseOutcome",
    "InitialState",
    "JudgeOutcome",
    "JudgeSpec",
    "McpResource",
    "McpToolRef",
    "Outcome",
    "Policy",
    "RecordOutcome",
    "RecordRef",
    "RetryPolicy",
    "StateOutcome",
    "TargetParameters",
    "TargetSpec",
    "ToolAllow",
    "ToolCalledOutcome",
    "ToolDeclaration",
    "ToolNotCalledOutcome",
    "Turn",
    "Workflow",
]

FaultKind = Literal[
    "unavailable_tool",
    "timeout",
    "stale_read",
    "incomplete_read",
    "malformed_result",
    "conflicting_instructions",
]

#: Every key an `allow` block may hold.
ALLOW_KEYS = ("paths", "ids", "tables", "fields", "recipients", "actions", "assignees")


@attrs.frozen(kw_only=True)
class TargetParameters:
    """Sampling settings sent with every model request."""

    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None
    max_output_tokens: int | None = None


@attrs.frozen(kw_only=True)
class TargetSpec:
    """Which provider entry and model the workflow runs against."""

    provider: str
    model: str
    parameters: TargetParameters = TargetParameters()


@attrs.frozen(kw_only=True, repr=False)
class InitialState:
    """Detached state for the non-file catalogue tools."""

    documents: dict[str, Document] = attrs.field(factory=dict)
    records: dict[str, dict[str, dict[str, Any]]] = attrs.field(factory=dict)

    def __repr__(self) -> str:
        return (
            f"InitialState(documents={len(self.documents)}, tables={len(self.records)})"
        )


@attrs.frozen(kw_only=True, repr=False)
class EnvironmentSpec:
    """Where file tools act, and the state every session starts from."""

    kind: Literal["simulated", "sandbox"] = "simulated"
    files: dict[str, str] = attrs.field(factory=dict)
    state: InitialState = InitialState()
    fixture: str | None = None

    def __repr__(self) -> str:
        return (
            f"EnvironmentSpec(kind={self.kind!r}, files={len(self.files)}, "
            f"state={self.state!r}, fixture={self.fixture is not None})"
        )


@attrs.frozen(kw_only=True)
class ToolAllow:
    """The resources a declared tool may touch; globs over ids, paths, addresses."""

    paths: tuple[str, ...] | None = None
    ids: tuple[str, ...] | None = None
    tables: tuple[str, ...] | None = None
    fields: tuple[str, ...] | None = None
    recipients: tuple[str, ...] | None = None
    actions: tuple[str, ...] | None = None
    assignees: tuple[str, ...] | None = None

    def as_mapping(self) -> dict[str, tuple[str, ...]]:
        """The keys the workflow gave, key → globs (what a tool handler sees)."""
        return {
            name: globs
            for name in _ALLOW_KEYS
            if (globs := getattr(self, name)) is not None
        }


_ALLOW_KEYS = tuple(field.name for field in attrs.fields(ToolAllow))


@attrs.frozen(kw_only=True)
class McpToolRef:
    """Which tool of which configured MCP server a declaration stands for."""

    server: str
    tool: str


@attrs.frozen(kw_only=True)
class McpResource:
    """The ``allow`` key an MCP tool's calls are checked against, from which argument.

    Attributes:
        key: Any ``allow`` key.
        argument: A string argument of the tool whose value must match the key's
            globs; ``None`` when the tool has no resource argument to check.
    """

    key: str
    argument: str | None = None


@attrs.frozen(kw_only=True)
class ToolDeclaration:
    """A tool the agent may call, and on which resources.

    A catalogue tool is named; an MCP tool (SPEC 24) also says which server tool it
    is (``mcp``), its resource, its effect (``write`` unless declared ``read``), an
    optional pin of the server's schema digest and its call timeout.
    """

    name: str
    allow: ToolAllow = ToolAllow()
    mcp: McpToolRef | None = None
    resource: McpResource | None = None
    effect: Literal["read", "write"] | None = None
    schema_digest: str | None = None
    timeout_ms: int | None = None


@attrs.frozen(kw_only=True)
class Policy:
    """Host policy: network is always denied; what a denial does to the run."""

    network: Literal["denied"] = "denied"
    on_denial: Literal["stop", "report"] = "stop"


@attrs.frozen(kw_only=True, repr=False)
class Turn:
    """One user message; the agent loop runs until the model answers in text."""

    user: str

    def __repr__(self) -> str:
        return "Turn(<hidden>)"


@attrs.frozen(kw_only=True, repr=False)
class Conversation:
    """The system prompt and the scripted user turns."""

    turns: tuple[Turn, ...]
    system: str | None = None

    def __repr__(self) -> str:
        return (
            f"Conversation(turns={len(self.turns)}, system={self.system is not None})"
        )


@attrs.frozen(kw_only=True)
class Budgets:
    """Caps on the run (SPEC 3.2); ``None`` means no separate cap."""

    max_actions: int
    timeout_ms: int
    max_model_requests: int | None = None
    max_tool_calls: int | None = None
    max_tokens: int | None = None


@attrs.frozen(kw_only=True)
class FileOutcome:
    """A requirement on one file of the final state."""

    id: str
    file: str
    exists: bool | None = None
    absent: bool | None = None
    contains: tuple[str, ...] = ()
    equals: str | None = None
    matches: str | None = None


@attrs.frozen(kw_only=True)
class RecordRef:
    """A record address: table and id."""

    table: str
    id: str


@attrs.frozen(kw_only=True)
class RecordOutcome:
    """A requirement that a record exists and holds the given field values."""

    id: str
    record: RecordRef
    fields: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class StateOutcome:
    """A requirement on a dotted path of the final state (SPEC 3.1 layout)."""

    id: str
    state: str
    equals: Any


@attrs.frozen(kw_only=True)
class ToolCalledOutcome:
    """Successful logical calls of a tool lie within ``min``..``max``."""

    id: str
    tool_called: str
    min: int | None = None
    max: int | None = None


@attrs.frozen(kw_only=True)
class ToolNotCalledOutcome:
    """A tool never ran successfully."""

    id: str
    tool_not_called: str


@attrs.frozen(kw_only=True)
class FinalResponseCheck:
    """Checks on the model's last text answer."""

    contains: tuple[str, ...] = ()
    matches: str | None = None


@attrs.frozen(kw_only=True)
class FinalResponseOutcome:
    """A requirement on the model's final text answer."""

    id: str
    final_response: FinalResponseCheck


@attrs.frozen(kw_only=True)
class JudgeSpec:
    """A rubric scored 0–1 by an explicitly configured judge."""

    rubric: str
    threshold: float


@attrs.frozen(kw_only=True)
class JudgeOutcome:
    """A semantic requirement; unavailable unless a judge is configured."""

    id: str
    judge: JudgeSpec


Outcome = (
    FileOutcome
    | RecordOutcome
    | StateOutcome
    | ToolCalledOutcome
    | ToolNotCalledOutcome
    | FinalResponseOutcome
    | JudgeOutcome
)


@attrs.frozen(kw_only=True)
class Fault:
    """A declared fault injected into one occurrence of a tool (SPEC 3.4)."""

    id: str
    tool: str
    occurrence: int
    kind: FaultKind
    timeout_ms: int | None = None
    fixture: dict[str, Any] | None = None
    content: str | None = None


@attrs.frozen(kw_only=True)
class RetryPolicy:
    """How many attempts a logical tool call gets, the first one included."""

    max_attempts: int = 1


@attrs.frozen(kw_only=True, repr=False)
class Workflow:
    """A validated workflow, version 1.

    Its repr shows the name, target, environment kind and tool names, never the
    conversation, files, state or expected content.
    """

    version: Literal[1]
    name: str
    target: TargetSpec
    conversation: Conversation
    budgets: Budgets
    description: str | None = None
    tags: tuple[str, ...] = ()
    environment: EnvironmentSpec = EnvironmentSpec()
    tools: tuple[ToolDeclaration, ...] = ()
    policy: Policy = Policy()
    outcomes: tuple[Outcome, ...] = ()
    faults: tuple[Fault, ...] = ()
    retry: RetryPolicy = RetryPolicy()

    def __repr__(self) -> str:
        tools = tuple(tool.name for tool in self.tools)
        return (
            f"Workflow(name={self.name!r}, version={self.version}, "
            f"target={self.target!r}, environment={self.environment.kind!r}, "
            f"tools={tools!r}, outcomes={len(self.outcomes)}, "
            f"faults={len(self.faults)})"
        )


def _omit_empty_tags(hook: Any) -> Any:
    """Wrap Workflow's unstructure hook: no ``tags`` key when there are none.

    The workflow digest is taken over this canonical form, so a workflow without
    ``tags:`` keeps the digest it had before the key existed.
    """

    def unstructure(workflow: Workflow) -> dict[str, Any]:
        document: dict[str, Any] = hook(workflow)
        if not document["tags"]:
            del document["tags"]
        return document

    return unstructure


_MCP_FIELDS = ("mcp", "resource", "effect", "schema_digest", "timeout_ms")


def _omit_absent_mcp(hook: Any) -> Any:
    """Wrap ToolDeclaration's unstructure hook: no MCP keys that were not given.

    A catalogue tool's declaration then keeps the digest it had before MCP tools
    existed.
    """

    def unstructure(declaration: ToolDeclaration) -> dict[str, Any]:
        document: dict[str, Any] = hook(declaration)
        for key in _MCP_FIELDS:
            if document.get(key) is None:
                document.pop(key, None)
        return document

    return unstructure


CONVERTER.register_unstructure_hook(
    ToolDeclaration,
    _omit_absent_mcp(CONVERTER.get_unstructure_hook(ToolDeclaration)),
)

# after the declarations' hook: the Workflow hook is built over it
CONVERTER.register_unstructure_hook(
    Workflow, _omit_empty_tags(CONVERTER.get_unstructure_hook(Workflow))
)
