"""The scenario model and its loader (TypeScript ``schema.ts`` and ``parser.ts``).

A scenario file is YAML 1.2 (``yes`` stays a string, duplicate keys are errors);
``${VAR}`` / ``${VAR:-default}`` are expanded over every string value, then the
document is checked. Unknown keys are ignored and listed as notices; every problem
is listed with its line and column.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._reading import read_text_file
from artemiskit._common._yaml import format_path, parse_yaml_plain, surrogate_problems
from artemiskit._errors import Problem, WorkflowError
from artemiskit.prompt_response._kinds import describe_document
from artemiskit.prompt_response._redaction import (
    RedactionSettings,
    redaction_pattern_problem,
)
from artemiskit.prompt_response._variables import expand_environment, variable_names
from artemiskit.prompt_response.evaluators._registry import normalize_expectation

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit._common._yaml import KeyPath, ParsedYaml

__all__ = [
    "MAX_SCENARIO_BYTES",
    "Case",
    "PromptMessage",
    "Scenario",
    "ScenarioError",
    "load_scenario",
    "parse_scenario",
]

MAX_SCENARIO_BYTES = 4 * 1024 * 1024
_ROLES = ("system", "user", "assistant")
_SCENARIO_KEYS = {
    "name",
    "description",
    "version",
    "provider",
    "model",
    "providerConfig",
    "seed",
    "temperature",
    "maxTokens",
    "tags",
    "variables",
    "redaction",
    "setup",
    "cases",
    "teardown",
}
_CASE_KEYS = {
    "id",
    "name",
    "description",
    "prompt",
    "expected",
    "tags",
    "metadata",
    "timeout",
    "retries",
    "provider",
    "model",
    "variables",
    "redaction",
}
_REDACTION_KEYS = {
    "enabled",
    "patterns",
    "redactPrompts",
    "redactResponses",
    "redactMetadata",
    "replacement",
}


class ScenarioError(WorkflowError):
    """A prompt-response scenario file is invalid; ``.problems`` lists every one."""

    default_reason = "invalid_scenario"


@attrs.frozen(kw_only=True)
class PromptMessage:
    """One message of a multi-turn prompt."""

    role: str
    content: str


@attrs.frozen(kw_only=True, repr=False)
class Case:
    """One test case.

    Attributes:
        id: The case id.
        name: A display name.
        prompt: The prompt text, or a conversation.
        expected: The expectation in its stored form.
        tags: Tags for ``--tags``.
        timeout_ms: The case's own timeout.
        retries: The case's own retry count (``None``: the run's ``--retries``).
        model: The model for this case.
        variables: Variables that override the scenario's.
        redaction: The case's own redaction block.
        position: Line and column of the case in its file.
    """

    id: str
    name: str | None = None
    prompt: str | tuple[PromptMessage, ...]
    expected: dict[str, Any]
    tags: tuple[str, ...] = ()
    timeout_ms: float | None = None
    retries: int | None = None
    model: str | None = None
    variables: dict[str, str | int | float | bool] = attrs.field(factory=dict)
    redaction: RedactionSettings | None = None
    position: tuple[int, int] | None = None

    def __repr__(self) -> str:
        return f"Case(id={self.id!r}, type={self.expected.get('type')!r})"

    def recorded_prompt(self) -> str | list[dict[str, str]]:
        """The prompt as a manifest stores it (unsubstituted)."""
        if isinstance(self.prompt, str):
            return self.prompt
        return [{"role": m.role, "content": m.content} for m in self.prompt]


@attrs.frozen(kw_only=True, repr=False)
class Scenario:
    """A prompt-response scenario file.

    Attributes:
        name: The scenario name (the manifest's ``config.scenario``, the baseline key).
        source: The file it was loaded from.
        description: What it tests.
        version: The scenario format version.
        provider: The provider entry to use.
        model: The model.
        seed: Sent with every request.
        temperature: Sent with every request.
        max_tokens: Sent with every request.
        variables: ``{{name}}`` values for prompts.
        redaction: The scenario's redaction block.
        system_prompt: ``setup.systemPrompt``.
        cases: The cases, in file order.
        notices: Unknown keys that were ignored, and variables expanded to ``""``.
    """

    name: str
    source: str
    description: str | None = None
    version: str = "1.0"
    provider: str | None = None
    model: str | None = None
    seed: float | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    variables: dict[str, str | int | float | bool] = attrs.field(factory=dict)
    redaction: RedactionSettings | None = None
    system_prompt: str | None = None
    cases: tuple[Case, ...]
    notices: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Scenario(name={self.name!r}, cases={len(self.cases)})"


class _Checker:
    def __init__(self, doc: ParsedYaml, notices: list[str]) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.notices = notices

    def report(self, path: KeyPath, message: str) -> None:
        self.problems.append(self.doc.problem(message, path))

    def unknown(self, raw: Mapping[str, Any], known: set[str], path: KeyPath) -> None:
        for key in raw:
            if key not in known:
                where = self.doc.key_position((*path, key))
                at = f" (line {where[0]}, column {where[1]})" if where else ""
                self.notices.append(
                    f"{self.doc.source}{at}: ignored unknown key "
                    f"{format_path((*path, key))}"
                )

    def string(self, raw: Mapping[str, Any], key: str, path: KeyPath) -> str | None:
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            self.report((*path, key), "must be a string")
            return None
        return value

    def number(
        self,
        raw: Mapping[str, Any],
        key: str,
        path: KeyPath,
        *,
        low: float | None = None,
        high: float | None = None,
        integer: bool = False,
    ) -> Any:
        value = raw.get(key)
        if value is None:
            return None
        if not isinstance(value, int | float) or isinstance(value, bool):
            self.report((*path, key), "must be a number")
            return None
        if integer and not float(value).is_integer():
            self.report((*path, key), "must be an integer")
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            self.report((*path, key), f"must be a number from {low} to {high}")
            return None
        return value

    def strings(
        self, raw: Mapping[str, Any], key: str, path: KeyPath
    ) -> tuple[str, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.report((*path, key), "must be a list of strings")
            return ()
        return tuple(value)

    def variables(
        self, raw: Mapping[str, Any], path: KeyPath
    ) -> dict[str, str | int | float | bool]:
        value = raw.get("variables", {})
        if not isinstance(value, dict):
            self.report((*path, "variables"), "must be a mapping")
            return {}
        for name, item in value.items():
            if not isinstance(item, str | int | float):
                self.report(
                    (*path, "variables", name), "must be a string, number or boolean"
                )
        return {k: v for k, v in value.items() if isinstance(v, str | int | float)}

    def redaction(
        self, raw: Mapping[str, Any], path: KeyPath
    ) -> RedactionSettings | None:
        if "redaction" not in raw:
            return None
        value, where = raw["redaction"], (*path, "redaction")
        if not isinstance(value, dict):
            self.report(where, "must be a mapping")
            return None
        self.unknown(value, _REDACTION_KEYS, where)
        flags = {}
        for key in ("enabled", "redactPrompts", "redactResponses", "redactMetadata"):
            if key in value and not isinstance(value[key], bool):
                self.report((*where, key), "must be a boolean")
            flags[key] = value.get(key) if isinstance(value.get(key), bool) else None
        patterns = (
            self.strings(value, "patterns", where) if "patterns" in value else None
        )
        for index, pattern in enumerate(patterns or ()):
            problem = redaction_pattern_problem(pattern)
            if problem is not None:
                self.report((*where, "patterns", index), problem)
        return RedactionSettings(
            enabled=flags["enabled"] is True,
            patterns=patterns,
            redact_prompts=flags["redactPrompts"],
            redact_responses=flags["redactResponses"],
            replacement=self.string(value, "replacement", where),
        )

    def prompt(self, raw: Any, path: KeyPath) -> str | tuple[PromptMessage, ...]:
        if isinstance(raw, str):
            return raw
        if not isinstance(raw, list) or not raw:
            self.report(path, "must be a string or a non-empty list of messages")
            return ""
        messages = []
        for index, item in enumerate(raw):
            where = (*path, index)
            if not isinstance(item, dict):
                self.report(where, "must be a mapping with role and content")
                continue
            self.unknown(item, {"role", "content"}, where)
            role, content = item.get("role"), item.get("content")
            if role not in _ROLES:
                self.report((*where, "role"), "must be one of: system, user, assistant")
            if not isinstance(content, str):
                self.report((*where, "content"), "must be a string")
            if role in _ROLES and isinstance(content, str):
                messages.append(PromptMessage(role=str(role), content=content))
        return tuple(messages)

    def case(self, raw: Any, path: KeyPath, evaluators: tuple[str, ...] | None) -> Case:
        if not isinstance(raw, dict):
            self.report(path, "must be a mapping")
            return Case(id="", prompt="", expected={})
        self.unknown(raw, _CASE_KEYS, path)
        case_id = raw.get("id")
        if not isinstance(case_id, str):
            self.report((*path, "id"), "is required and must be a string")
            case_id = ""
        if "prompt" not in raw:
            self.report((*path, "prompt"), "is required")
        if "expected" not in raw:
            self.report((*path, "expected"), "is required")
            expected: dict[str, Any] = {}
        else:

            def report(where: KeyPath, message: str) -> None:
                named = f" (case {case_id!r})" if case_id else ""
                self.report(where, message + named)

            expected = normalize_expectation(
                raw["expected"], (*path, "expected"), report, evaluators=evaluators
            )
        timeout = self.number(raw, "timeout", path, low=0, high=None)
        retries = self.number(raw, "retries", path, low=0, high=100, integer=True)
        return Case(
            id=case_id,
            name=self.string(raw, "name", path),
            prompt=self.prompt(raw.get("prompt", ""), (*path, "prompt")),
            expected=expected,
            tags=self.strings(raw, "tags", path),
            timeout_ms=timeout,
            retries=None if retries is None else int(retries),
            model=self.string(raw, "model", path),
            variables=self.variables(raw, path),
            redaction=self.redaction(raw, path),
            position=self.doc.position(path),
        )


def _check_variables(checker: _Checker, scenario: Scenario) -> None:
    for index, case in enumerate(scenario.cases):
        texts = (
            [case.prompt]
            if isinstance(case.prompt, str)
            else [m.content for m in case.prompt]
        )
        known = {**scenario.variables, **case.variables}
        for text in texts:
            for name in variable_names(text):
                if known and name not in known:
                    checker.report(
                        ("cases", index, "prompt"),
                        f"uses {{{{{name}}}}}, which no variables block defines",
                    )


def build_scenario(
    doc: ParsedYaml,
    *,
    environ: Mapping[str, str] | None = None,
    evaluators: tuple[str, ...] | None = None,
    check_variables: bool = False,
    withheld: Sequence[str] = (),
) -> Scenario:
    """Expand, check and build a scenario from a parsed document.

    ``check_variables`` (what ``akit validate`` does) also refuses a prompt
    placeholder no variables block defines; a run leaves it verbatim.

    Raises:
        ScenarioError: Every problem found, with positions; or, with reason
            ``not_a_scenario``, the document is another kind of ArtemisKit file
            (a workflow, a record, a manifest).
    """
    notices: list[str] = []
    checker = _Checker(doc, notices)

    def missing(path: KeyPath, name: str) -> None:
        where = doc.position(path)
        at = f" (line {where[0]}, column {where[1]})" if where else ""
        notices.append(
            f"{doc.source}{at}: environment variable {name} is not set and has no "
            f"default; {format_path(path)} uses an empty string"
        )

    def refused(path: KeyPath, name: str) -> None:
        where = doc.position(path)
        at = f" (line {where[0]}, column {where[1]})" if where else ""
        notices.append(
            f"{doc.source}{at}: environment variable {name} may hold a secret and "
            f"is not expanded in a scenario; {format_path(path)} uses its default"
        )

    what = describe_document(doc.data)
    if what is not None:
        hint = " (workflows: akit scenario validate / akit workflow run)"
        raise ScenarioError(
            f"{doc.source} is {what}, not a prompt-response scenario"
            + (hint if "workflow" in what else ""),
            reason="not_a_scenario",
        )
    if not isinstance(doc.data, dict):
        raise ScenarioError(
            f"{doc.source}: invalid scenario (1 problem)",
            [doc.problem("must be a mapping (a scenario)", ())],
        )
    checker.problems += surrogate_problems(doc, doc.data)
    data = expand_environment(
        doc.data,
        missing=missing,
        environ=environ,
        withheld=withheld,
        refused=refused,
    )
    checker.unknown(data, _SCENARIO_KEYS, ())
    name = checker.string(data, "name", ())
    if name is None:
        if "name" not in data:
            checker.report(("name",), "is required")
        name = ""
    version = checker.string(data, "version", ()) or "1.0"
    setup = data.get("setup", {})
    system_prompt = None
    if not isinstance(setup, dict):
        checker.report(("setup",), "must be a mapping")
    else:
        system_prompt = checker.string(setup, "systemPrompt", ("setup",))
    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        checker.report(("cases",), "is required: a non-empty list of cases")
        raw_cases = []
    cases = tuple(
        checker.case(raw, ("cases", index), evaluators)
        for index, raw in enumerate(raw_cases)
    )
    first_use: dict[str, int] = {}
    for index, case in enumerate(cases):
        if case.id and case.id in first_use:
            where = doc.position(("cases", first_use[case.id], "id"))
            at = f" at line {where[0]}" if where else ""
            checker.report(
                ("cases", index, "id"),
                f"case id {case.id!r} is already used by "
                f"cases[{first_use[case.id]}]{at}",
            )
        first_use.setdefault(case.id, index)
    max_tokens = checker.number(data, "maxTokens", (), low=1, high=None, integer=True)
    scenario = Scenario(
        name=name,
        source=doc.source,
        description=checker.string(data, "description", ()),
        version=version,
        provider=checker.string(data, "provider", ()),
        model=checker.string(data, "model", ()),
        seed=checker.number(data, "seed", ()),
        temperature=checker.number(data, "temperature", (), low=0, high=2),
        max_tokens=None if max_tokens is None else int(max_tokens),
        variables=checker.variables(data, ()),
        redaction=checker.redaction(data, ()),
        system_prompt=system_prompt,
        cases=cases,
        notices=tuple(notices),
    )
    checker.strings(data, "tags", ())
    if check_variables:
        _check_variables(checker, scenario)
    if checker.problems:
        count = len(checker.problems)
        noun = "problem" if count == 1 else "problems"
        raise ScenarioError(
            f"{doc.source}: invalid scenario ({count} {noun})", checker.problems
        )
    return scenario


def parse_scenario(
    text: str,
    *,
    source: str = "<string>",
    environ: Mapping[str, str] | None = None,
    evaluators: tuple[str, ...] | None = None,
    check_variables: bool = False,
    withheld: Sequence[str] = (),
) -> Scenario:
    """Parse and check scenario text.

    Args:
        text: The YAML text.
        source: The file name used in problems.
        environ: The environment for ``${VAR}`` (default: `os.environ`).
        evaluators: The registered ``custom`` evaluator names (``None``: look up).
        check_variables: Also refuse undefined ``{{name}}`` placeholders.
        withheld: Credential values (`known_secrets`): a variable holding one is
            not expanded, nor is one whose name looks secret (``*_KEY``,
            ``*_TOKEN``, ``*_SECRET``, ``*PASSWORD*``); it counts as unset.

    Raises:
        ScenarioError: The text is not a valid scenario (every problem listed).
    """
    try:
        doc = parse_yaml_plain(text, source=source)
    except WorkflowError as exc:
        count = len(exc.problems)
        noun = "problem" if count == 1 else "problems"
        raise ScenarioError(
            f"{source}: invalid scenario ({count} {noun})", exc.problems
        ) from None
    return build_scenario(
        doc,
        environ=environ,
        evaluators=evaluators,
        check_variables=check_variables,
        withheld=withheld,
    )


async def load_scenario(
    path: str | os.PathLike[str],
    *,
    environ: Mapping[str, str] | None = None,
    evaluators: tuple[str, ...] | None = None,
    check_variables: bool = False,
    withheld: Sequence[str] = (),
) -> Scenario:
    """Read and parse a scenario file (arguments as `parse_scenario`).

    Raises:
        FileAccessError: The file cannot be read (exit 1).
        ScenarioError: The file is not a valid scenario.
    """
    source = os.fspath(path)
    text = await read_text_file(
        path,
        what="scenario",
        limit=MAX_SCENARIO_BYTES,
        invalid=lambda problem: ScenarioError(
            f"{source}: invalid scenario (1 problem)", [problem]
        ),
    )
    return parse_scenario(
        text,
        source=source,
        environ=environ,
        evaluators=evaluators,
        check_variables=check_variables,
        withheld=withheld,
    )
