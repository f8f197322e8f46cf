"""The ``scripted`` provider: a deterministic, offline target that replays a script.

A script is a YAML file (SPEC 5)::

    version: 1
    responses:
      - tool_calls:
          - {name: read_file, arguments: {path: docs/a.md}}
        usage: {input_tokens: 120, output_tokens: 20}
      - text: Done.
        delay_ms: 50       # optional latency; honours cancellation

One entry answers one model request, in order (a preflight probe consumes entries
too). A request past the last entry is a target failure.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit._common._paths import script_reference
from artemiskit._common._reading import decode_text, read_file_below, read_text_file
from artemiskit._common._yaml import (
    KeyPath,
    ParsedYaml,
    parse_yaml_plain,
    surrogate_problems,
)
from artemiskit._errors import Problem, TargetError, WorkflowError
from artemiskit.targets._protocol import TargetRequest, TargetResponse, ToolCall, Usage

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "MAX_SCRIPT_BYTES",
    "ScriptCase",
    "ScriptEntry",
    "ScriptedTarget",
    "load_script",
    "load_script_below",
    "parse_script",
    "parse_script_document",
    "parse_script_variants",
    "script_variants",
]

MAX_SCRIPT_BYTES = 16 * 1024 * 1024
_ENTRY_KEYS = {"tool_calls", "text", "usage", "delay_ms", "score"}


@attrs.frozen(kw_only=True)
class ScriptEntry:
    """One scripted model answer."""

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage | None = None
    delay_ms: int = 0
    score: float | None = None


def _problem(problems: list[Problem], doc: ParsedYaml, path: KeyPath, msg: str) -> None:
    problems.append(doc.problem(msg, path))


def _nonneg_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _unencodable_text(doc: ParsedYaml, data: dict[Any, Any]) -> list[Problem]:
    """Lone surrogates anywhere but in tool-call arguments.

    Arguments are the model's own words: a script plays a hostile model with them,
    and admission refuses them as an ``invalid_arguments`` denial (SPEC 11).
    """
    found: list[Problem] = []
    for key, value in data.items():
        if key == "variants" and isinstance(value, list):
            for number, variant in enumerate(value):
                found += _unencodable_responses(doc, variant, (key, number))
        elif key == "responses":
            found += _unencodable_responses(doc, value, (key,))
        else:
            found += surrogate_problems(doc, {key: value})
    return found


def _unencodable_responses(doc: ParsedYaml, value: Any, path: KeyPath) -> list[Problem]:
    found: list[Problem] = []
    if not isinstance(value, list):
        return surrogate_problems(doc, value, path)
    for index, entry in enumerate(value):
        where: KeyPath = (*path, index)
        if not isinstance(entry, dict):
            found += surrogate_problems(doc, entry, where)
            continue
        for field, item in entry.items():
            if field != "tool_calls" or not isinstance(item, list):
                found += surrogate_problems(doc, {field: item}, where)
                continue
            for position, call in enumerate(item):
                at: KeyPath = (*where, "tool_calls", position)
                if not isinstance(call, dict):
                    found += surrogate_problems(doc, call, at)
                    continue
                others = {k: v for k, v in call.items() if k != "arguments"}
                found += surrogate_problems(doc, others, at)
    return found


def parse_script(text: str, *, source: str = "<string>") -> tuple[ScriptEntry, ...]:
    """Parse and check a script; of a script with ``variants:``, the first.

    Raises:
        WorkflowError: The script is not valid YAML or breaks the format; every
            problem is listed with its line and column.
    """
    return parse_script_variants(text, source=source)[0]


def parse_script_variants(
    text: str,
    *,
    source: str = "<string>",
    case: ScriptCase | None = None,
) -> tuple[tuple[ScriptEntry, ...], ...]:
    """Parse and check a script; every response list it holds (for one case).

    A script holds either ``responses:`` (one list) or ``variants:`` (a list of
    response lists, SPEC 13: repetition r of a suite replays variant
    ``(r - 1) mod len(variants)``). It may also hold ``cases: {case-id:
    {responses|variants: ...}}`` (SPEC 19): a run of that case replays its own
    lists instead of the top-level ones, and every string of the lists it
    replays takes the case's values for its ``{{ name }}`` placeholders.

    Args:
        text: The script's YAML.
        source: The file name used in problems.
        case: The dataset case this run is of, or ``None``.

    Raises:
        WorkflowError: The script is not valid YAML or breaks the format, or it
            has no responses for this case (or none without one); every
            problem is listed with its line and column.
    """
    return script_variants(parse_script_document(text, source=source), case)


class ScriptCase:
    """The case a scripted run is of: its id and its values.

    Args:
        id: The case id.
        values: The case's values (never shown in a message).
    """

    __slots__ = ("id", "values")

    def __init__(self, id: str, values: Mapping[str, object]) -> None:
        self.id = id
        self.values = values

    def __repr__(self) -> str:
        return f"ScriptCase(id={self.id!r})"


def parse_script_document(text: str, *, source: str = "<string>") -> ParsedYaml:
    """Parse a script and check its top-level shape (its lists are checked per case).

    Raises:
        WorkflowError: Not valid YAML, not a mapping, an unknown key, a bad
            ``version`` or ``cases``; every problem with its line and column.
    """
    try:
        doc = parse_yaml_plain(text, source=source)
    except WorkflowError as exc:
        raise _invalid(source, list(exc.problems)) from None
    problems: list[Problem] = []
    data = doc.data
    if not isinstance(data, dict):
        problem = Problem(message="must be a mapping", source=source, line=1, column=1)
        raise _invalid(source, [problem])
    problems += _unencodable_text(doc, data)
    if problems:
        raise _invalid(source, problems)
    for key in data:
        if key not in ("version", "responses", "variants", "cases"):
            message = "unknown key (known: cases, responses, variants, version)"
            problems.append(doc.problem(message, (key,), at_key=True))
    if data.get("version") != 1:
        _problem(problems, doc, ("version",), "must be 1")
    cases = data.get("cases")
    if cases is not None:
        if not isinstance(cases, dict):
            _problem(problems, doc, ("cases",), "must map case ids to responses")
        else:
            for case_id, body in cases.items():
                if not isinstance(body, dict) or not (
                    set(body) <= {"responses", "variants"} and body
                ):
                    message = "must hold responses or variants (nothing else)"
                    _problem(problems, doc, ("cases", case_id), message)
    if problems:
        raise _invalid(source, problems)
    from artemiskit._common._substitution import has_placeholder

    if not _any_string(data, has_placeholder):
        # without placeholders, every list replays as written: check them now
        if "responses" in data or "variants" in data:
            script_variants(doc)
        for case_id in cases or {}:
            script_variants(doc, ScriptCase(case_id, {}))
    return doc


def _any_string(value: Any, test: Callable[[str], bool]) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if test(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def script_variants(
    doc: ParsedYaml, case: ScriptCase | None = None
) -> tuple[tuple[ScriptEntry, ...], ...]:
    """The response lists a run replays, from a parsed script (`parse_script_document`).

    Args:
        doc: The parsed script.
        case: The dataset case the run is of, or ``None``.

    Raises:
        WorkflowError: The lists break the format, a placeholder names nothing
            in the case, or there are no responses for this run.
    """
    data: dict[str, Any] = doc.data
    base: KeyPath = ()
    cases = data.get("cases") or {}
    if case is not None and case.id in cases:
        base = ("cases", case.id)
        data = cases[case.id]
    problems: list[Problem] = []
    if case is not None:
        data = _substituted(doc, data, base, case, problems)
        if problems:
            raise _invalid(doc.source, problems)
    if "responses" not in data and "variants" not in data:
        which = "this case" if case is not None else "a run without a case"
        message = (
            f"the script has no responses for {which} (give responses:, "
            "variants: or a cases: entry)"
        )
        raise _invalid(doc.source, [doc.problem(message, base)])
    variants: list[tuple[ScriptEntry, ...]] = []
    if "variants" in data:
        if "responses" in data:
            message = "give either responses or variants, not both"
            problems.append(doc.problem(message, (*base, "variants"), at_key=True))
        listed = data["variants"]
        if not isinstance(listed, list) or not listed:
            message = "must be a non-empty list of lists"
            _problem(problems, doc, (*base, "variants"), message)
            listed = []
        for number, responses in enumerate(listed):
            variants.append(
                _entries(doc, responses, (*base, "variants", number), problems)
            )
    else:
        variants.append(
            _entries(doc, data.get("responses"), (*base, "responses"), problems)
        )
    if problems:
        raise _invalid(doc.source, problems)
    return tuple(variants)


def _substituted(
    doc: ParsedYaml,
    data: dict[str, Any],
    base: KeyPath,
    case: ScriptCase,
    problems: list[Problem],
) -> dict[str, Any]:
    """The lists of ``data`` with the case's values in their placeholders."""
    from artemiskit._common._substitution import TemplateError, substitute

    filled: dict[str, Any] = {}
    for key in ("responses", "variants"):
        if key in data:
            try:
                filled[key] = substitute(data[key], case.values)
            except TemplateError as exc:
                message = f"case {case.id}: {exc}"
                problems.append(doc.problem(message, (*base, key)))
    return filled


def _entries(
    doc: ParsedYaml, responses: Any, path: KeyPath, problems: list[Problem]
) -> tuple[ScriptEntry, ...]:
    """Parse one list of responses, appending every problem found."""
    entries: list[ScriptEntry] = []
    if not isinstance(responses, list) or not responses:
        _problem(problems, doc, path, "must be a non-empty list")
        responses = []
    for index, raw in enumerate(responses):
        base: KeyPath = (*path, index)
        if not isinstance(raw, dict):
            _problem(problems, doc, base, "must be a mapping")
            continue
        for key in raw:
            if key not in _ENTRY_KEYS:
                known = ", ".join(sorted(_ENTRY_KEYS))
                message = f"unknown key (known: {known})"
                problems.append(doc.problem(message, (*base, key), at_key=True))
        text_value = raw.get("text")
        if text_value is not None and not isinstance(text_value, str):
            _problem(problems, doc, (*base, "text"), "must be a string")
        calls: list[ToolCall] = []
        raw_calls = raw.get("tool_calls", [])
        if not isinstance(raw_calls, list):
            _problem(problems, doc, (*base, "tool_calls"), "must be a list")
            raw_calls = []
        for k, call in enumerate(raw_calls):
            where = (*base, "tool_calls", k)
            if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                _problem(problems, doc, where, "must be a mapping with a string name")
                continue
            if set(call) - {"name", "arguments", "id"}:
                _problem(problems, doc, where, "unknown key (name, arguments, id)")
            arguments = call.get("arguments", {})
            encoded = arguments if isinstance(arguments, str) else json.dumps(arguments)
            calls.append(
                ToolCall(
                    id=str(call.get("id") or f"call-{index + 1}-{k + 1}"),
                    name=call["name"],
                    arguments=encoded,
                )
            )
        usage = raw.get("usage")
        parsed_usage = None
        if usage is not None:
            if (
                not isinstance(usage, dict)
                or set(usage) != {"input_tokens", "output_tokens"}
                or not all(_nonneg_int(v) for v in usage.values())
            ):
                _problem(
                    problems,
                    doc,
                    (*base, "usage"),
                    "must hold non-negative integers input_tokens and output_tokens",
                )
            else:
                parsed_usage = Usage(**usage)
        delay = raw.get("delay_ms", 0)
        if not _nonneg_int(delay) or delay > 600_000:
            _problem(problems, doc, (*base, "delay_ms"), "must be an integer 0–600000")
            delay = 0
        score = raw.get("score")
        if score is not None and (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not 0 <= score <= 1
        ):
            _problem(problems, doc, (*base, "score"), "must be a number 0–1")
            score = None
        entries.append(
            ScriptEntry(
                text=text_value if isinstance(text_value, str) else None,
                tool_calls=tuple(calls),
                usage=parsed_usage,
                delay_ms=delay,
                score=None if score is None else float(score),
            )
        )
    return tuple(entries)


def _invalid(source: str, problems: list[Problem]) -> WorkflowError:
    count = len(problems)
    noun = "problem" if count == 1 else "problems"
    return WorkflowError(
        f"{source}: invalid script ({count} {noun})", problems, reason="invalid_script"
    )


def _invalid_script(source: str) -> Callable[[Problem], WorkflowError]:
    return lambda problem: WorkflowError(
        f"{source}: invalid script", [problem], reason="invalid_script"
    )


async def load_script(path: str | os.PathLike[str]) -> tuple[ScriptEntry, ...]:
    """Read and parse a script file (opened without blocking; regular files only).

    Raises:
        FileAccessError: The file is missing, unreadable or not a regular file
            (exit 1).
        WorkflowError: The script is invalid (exit 2).
    """
    source = os.fspath(path)
    text = await read_text_file(
        source, what="script", limit=MAX_SCRIPT_BYTES, invalid=_invalid_script(source)
    )
    return parse_script(text, source=source)


async def load_script_below(
    root: str | os.PathLike[str], model: str
) -> tuple[tuple[ScriptEntry, ...], bytes]:
    """Resolve ``MODEL.script.yaml`` under ``root`` like a fixture, and parse it.

    No ``..``, no absolute path, no symbolic link below ``root``, regular files only
    (a FIFO is refused without blocking).

    Args:
        root: The fixture root (or the provider entry's ``scripts_dir``).
        model: The workflow's (or judge configuration's) ``model``.

    Returns:
        The parsed entries and the bytes they were parsed from (for the digest).

    Raises:
        WorkflowError: The script cannot be resolved under ``root``, or it is
            invalid (exit 2).
    """
    reference = script_reference(model)
    source = os.path.join(os.fspath(root), reference)

    def refuse(message: str) -> WorkflowError:
        problem = Problem(message=message, source=source)
        return WorkflowError(
            f"{source}: invalid script ({message})", [problem], reason="invalid_script"
        )

    raw = await read_file_below(
        root, reference, what="script", limit=MAX_SCRIPT_BYTES, refuse=refuse
    )
    text = decode_text(
        raw,
        what="script",
        limit=MAX_SCRIPT_BYTES,
        source=source,
        invalid=_invalid_script(source),
    )
    return parse_script(text, source=source), raw


class ScriptedTarget:
    """An `AgentTarget` that replays script entries, one per model request, in order.

    Args:
        entries: The parsed script.
        position: How many entries earlier requests already consumed (a resumed
            run starts where the previous attempt stopped).
    """

    def __init__(self, entries: tuple[ScriptEntry, ...], *, position: int = 0) -> None:
        self.entries = entries
        self.position = position

    def resume_after(self, model_requests: int) -> None:
        """Continue after the ``model_requests`` entries earlier attempts consumed."""
        self.position = model_requests

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Answer with the next script entry, after its ``delay_ms``.

        A judge entry (one with ``score``) answers with the JSON verdict text.

        Raises:
            TargetError: The script has no entry left (exit 7).
        """
        if self.position >= len(self.entries):
            raise TargetError(
                "the script has no response left for this model request",
                reason="script_exhausted",
            )
        entry = self.entries[self.position]
        self.position += 1
        if entry.delay_ms:
            await anyio.sleep(entry.delay_ms / 1000)
        text = entry.text
        if text is None and entry.score is not None:
            text = json.dumps({"score": entry.score})
        return TargetResponse(text=text, tool_calls=entry.tool_calls, usage=entry.usage)
