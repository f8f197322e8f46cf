"""The workflow contract (SPEC section 3) as frozen attrs classes.

These classes hold a workflow that has already passed the JSON Schema and the semantic
checks; build them with `load_agent_workflow` / `parse_agent_workflow`, not by hand,
unless you know the contract holds.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from artemiskit._common._budgets import Budgets
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
    "JudgeSight",
    "JudgeSightKind",
    "JudgeSpec",
    "McpResource",
    "McpToolRef",
    "Outcome",
    "Predicate",
    "Policy",
    "RecordOutcome",
    "RecordRef",
    "ToolRetryPolicy",
    "ScorerOutcome",
    "StateOutcome",
    "TargetParameters",
    "TargetSpec",
    "ToolAllow",
    "ToolCalledOutcome",
    "ToolDeclaration",
    "ToolNotCalledOutcome",
    "Trajectory",
    "TrajectoryOutcome",
    "TrajectoryStep",
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


#: A validated predicate mapping: predicate key → operand (``artemiskit.workflow.
#: _predicates`` has the table); several keys must all hold.
Predicate = dict[str, Any]


@attrs.frozen(kw_only=True)
class FileOutcome:
    """A requirement on one file of the final state.

    Attributes:
        id: The requirement's id.
        file: The file's path (normalized).
        predicate: The predicate keys written beside ``file``: ``exists`` or
            ``absent`` on the file, any other on its content.
    """

    id: str
    file: str
    predicate: Predicate = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class RecordRef:
    """A record address: table and id."""

    table: str
    id: str


@attrs.frozen(kw_only=True)
class RecordOutcome:
    """A requirement that a record exists and its fields satisfy the given values.

    Each value of ``fields`` is a predicate mapping, or a value to equal.
    """

    id: str
    record: RecordRef
    fields: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class StateOutcome:
    """A requirement on a dotted path of the final state (SPEC 3.1 layout)."""

    id: str
    state: str
    predicate: Predicate = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class ToolCalledOutcome:
    """Successful logical calls of a tool lie within ``min``..``max``.

    With ``arguments``, only calls whose original arguments satisfy every entry
    (argument name, dotted into objects → predicate mapping or value) count.
    """

    id: str
    tool_called: str
    min: int | None = None
    max: int | None = None
    arguments: dict[str, Any] | None = None


@attrs.frozen(kw_only=True)
class ToolNotCalledOutcome:
    """No call of a tool ran (whose original arguments satisfy ``arguments``)."""

    id: str
    tool_not_called: str
    arguments: dict[str, Any] | None = None


@attrs.frozen(kw_only=True)
class FinalResponseCheck:
    """Checks on the model's last text answer.

    Attributes:
        predicate: Predicate keys on the answer's text.
        json: Dotted path of the answer parsed as JSON → predicate mapping or
            value to equal.
    """

    predicate: Predicate = attrs.field(factory=dict)
    json: dict[str, Any] | None = None


@attrs.frozen(kw_only=True)
class FinalResponseOutcome:
    """A requirement on the model's final text answer."""

    id: str
    final_response: FinalResponseCheck


@attrs.frozen(kw_only=True)
class TrajectoryStep:
    """One expected tool call of a trajectory."""

    tool: str
    arguments: dict[str, Any] | None = None
    status: Literal["succeeded", "failed", "denied"] | None = None


@attrs.frozen(kw_only=True)
class Trajectory:
    """Expected tool calls, in order, and how they line up with the calls made.

    ``subsequence``: the steps occur in this order, other calls between;
    ``prefix``: the first calls are these; ``exact``: the calls are these.
    """

    steps: tuple[TrajectoryStep, ...]
    mode: Literal["subsequence", "prefix", "exact"] = "subsequence"


@attrs.frozen(kw_only=True)
class TrajectoryOutcome:
    """A requirement on the order of tool calls (denied calls included)."""

    id: str
    trajectory: Trajectory


@attrs.frozen(kw_only=True)
class ScorerOutcome:
    """A requirement decided by a custom scorer the host registered.

    Attributes:
        id: The requirement's id.
        scorer: The registered scorer's name.
        params: The ``with:`` mapping, checked against the scorer's schema.
    """

    id: str
    scorer: str
    params: dict[str, Any] = attrs.field(factory=dict)


#: What a judge may be shown (SPEC 20): the literal kinds of ``sees``.
JudgeSightKind = Literal[
    "final_response", "files", "state", "tool_calls", "drafts", "transcript"
]


@attrs.frozen(kw_only=True)
class JudgeSight:
    """One entry of a judge's ``sees``: a kind, with its globs or paths if any."""

    kind: JudgeSightKind
    selectors: tuple[str, ...] = ()


_DEFAULT_SEES = (JudgeSight(kind="final_response"),)


@attrs.frozen(kw_only=True)
class JudgeSpec:
    """A rubric scored 0–1 by an explicitly configured judge.

    Attributes:
        rubric: What the judge scores.
        threshold: The pass mark for the median score.
        sees: Exactly what the judge receives (default: the final response).
        samples: How many times the judge is asked (1-9); the median decides.
    """

    rubric: str
    threshold: float
    sees: tuple[JudgeSight, ...] = _DEFAULT_SEES
    samples: int = 1


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
    | TrajectoryOutcome
    | ScorerOutcome
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
class ToolRetryPolicy:
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
    retry: ToolRetryPolicy = ToolRetryPolicy()

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


#: Each outcome class by the key that names its kind.
OUTCOME_KINDS: dict[str, type[Any]] = {
    "file": FileOutcome,
    "record": RecordOutcome,
    "state": StateOutcome,
    "tool_called": ToolCalledOutcome,
    "tool_not_called": ToolNotCalledOutcome,
    "final_response": FinalResponseOutcome,
    "trajectory": TrajectoryOutcome,
    "scorer": ScorerOutcome,
    "judge": JudgeOutcome,
}


def _structure_outcome(data: Any, _: Any) -> Outcome:
    if not isinstance(data, dict):
        raise TypeError("an outcome is a mapping")
    kind = next((k for k in OUTCOME_KINDS if k in data), None)
    if kind is None:
        raise KeyError("an outcome needs a kind key")
    outcome: Outcome = CONVERTER.structure(data, OUTCOME_KINDS[kind])
    return outcome


#: The text checks of ``file`` and ``final_response`` before predicates existed,
#: and the form their unstructured data had (``None``/empty when not given).
_LEGACY_FILE: dict[str, Any] = {
    "exists": None,
    "absent": None,
    "contains": [],
    "equals": None,
    "matches": None,
}
_LEGACY_RESPONSE: dict[str, Any] = {"contains": [], "matches": None}


def _legacy(predicate: Predicate, form: dict[str, Any]) -> dict[str, Any] | None:
    """``predicate`` in its pre-predicate form, when it has one.

    The workflow digest is taken over the unstructured form, so a workflow whose
    checks could be written before predicates existed keeps its digest.
    """
    if not set(predicate) <= set(form) or not isinstance(
        predicate.get("contains", []), list
    ):
        return None
    return {**form, **predicate}


def _given(data: dict[str, Any], form: dict[str, Any]) -> dict[str, Any]:
    """Drop the pre-predicate form's placeholders (text checks are never null)."""
    return {k: v for k, v in data.items() if not (k in form and v in (None, []))}


def _beside(cls: type[Any], subject: str, legacy: dict[str, Any] | None) -> None:
    """(Un)structure ``cls`` with its predicate keys beside ``subject``, as written."""
    form = legacy or {}

    def structure(data: dict[str, Any], _: Any) -> Any:
        predicate = {
            k: v for k, v in _given(data, form).items() if k not in ("id", subject)
        }
        return cls(id=data["id"], **{subject: data[subject]}, predicate=predicate)

    def unstructure(outcome: Any) -> dict[str, Any]:
        predicate = CONVERTER.unstructure(outcome.predicate)
        return {
            "id": outcome.id,
            subject: getattr(outcome, subject),
            **(_legacy(predicate, form) or predicate if legacy else predicate),
        }

    CONVERTER.register_structure_hook(cls, structure)
    CONVERTER.register_unstructure_hook(cls, unstructure)


def _without_defaults(cls: type[Any], *names: str) -> None:
    """Leave ``names`` out of ``cls``'s unstructured form while they hold defaults.

    The workflow digest is taken over the unstructured form, so a workflow that
    does not use a newer key keeps the digest it had before the key existed.
    """
    hook = CONVERTER.get_unstructure_hook(cls)
    defaults = {field.name: field.default for field in attrs.fields(cls)}

    def unstructure(value: Any) -> dict[str, Any]:
        document: dict[str, Any] = hook(value)
        for name in names:
            if getattr(value, name) == defaults[name]:
                del document[name]
        return document

    CONVERTER.register_unstructure_hook(cls, unstructure)


def _structure_final_response(data: dict[str, Any], _: Any) -> FinalResponseCheck:
    given = _given(data, _LEGACY_RESPONSE)
    predicate = {k: v for k, v in given.items() if k != "json"}
    return FinalResponseCheck(predicate=predicate, json=data.get("json"))


def _unstructure_final_response(check: FinalResponseCheck) -> dict[str, Any]:
    document: dict[str, Any] = CONVERTER.unstructure(check.predicate)
    if check.json is not None:
        document["json"] = CONVERTER.unstructure(check.json)
        return document
    return _legacy(document, _LEGACY_RESPONSE) or document


def _structure_scorer(data: dict[str, Any], _: Any) -> ScorerOutcome:
    return ScorerOutcome(
        id=data["id"], scorer=data["scorer"], params=dict(data.get("with", {}))
    )


def _unstructure_scorer(outcome: ScorerOutcome) -> dict[str, Any]:
    document = {"id": outcome.id, "scorer": outcome.scorer}
    if outcome.params:
        document["with"] = CONVERTER.unstructure(outcome.params)
    return document


def _structure_sight(data: Any, _: Any) -> JudgeSight:
    if isinstance(data, str):
        return JudgeSight(kind=data)  # type: ignore[arg-type]
    ((kind, selectors),) = data.items()
    return JudgeSight(kind=kind, selectors=tuple(selectors))


def _unstructure_sight(sight: JudgeSight) -> Any:
    return {sight.kind: list(sight.selectors)} if sight.selectors else sight.kind


CONVERTER.register_structure_hook(Outcome, _structure_outcome)
_beside(FileOutcome, "file", _LEGACY_FILE)
_beside(StateOutcome, "state", None)
CONVERTER.register_structure_hook(FinalResponseCheck, _structure_final_response)
CONVERTER.register_unstructure_hook(FinalResponseCheck, _unstructure_final_response)
CONVERTER.register_structure_hook(ScorerOutcome, _structure_scorer)
CONVERTER.register_unstructure_hook(ScorerOutcome, _unstructure_scorer)
CONVERTER.register_structure_hook(JudgeSight, _structure_sight)
CONVERTER.register_unstructure_hook(JudgeSight, _unstructure_sight)
_without_defaults(ToolCalledOutcome, "arguments")
_without_defaults(ToolNotCalledOutcome, "arguments")
_without_defaults(TrajectoryStep, "arguments", "status")
_without_defaults(JudgeSpec, "sees", "samples")
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
