"""Cassettes (SPEC 22): every model exchange of one run, as JSON lines.

A cassette's first line binds it to a workflow's contract digest, a case and a
target; each following line is one exchange, the request as sent (messages,
tools, parameters) and the response as received (text, tool calls, usage) or the
failure it met, with judge requests marked; the last line counts the exchanges,
so a cassette cut at a line boundary is refused like one cut mid-line. Every
line is validated against the shipped JSON Schema (``cassette.v1.schema.json``).

Cassettes are sensitive working data (prompts, model text, tool results): they
are written only when asked, 0600 in 0700 folders, and records carry their
digest, never their content.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit._common._digests import bytes_digest
from artemiskit._common._json import StrictJsonError, load_strict_json
from artemiskit._errors import CassetteError, FileAccessError
from artemiskit.targets._protocol import (
    Message,
    TargetRequest,
    TargetResponse,
    ToolCall,
    ToolDefinition,
    Usage,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "CASSETTE_SCHEMA",
    "CASSETTE_SCHEMA_VERSION",
    "MAX_CASSETTE_BYTES",
    "Cassette",
    "CassetteExchange",
    "CassetteHeader",
    "ExchangeKind",
    "cassette_schema",
    "encode_cassette",
    "encode_message",
    "encode_request",
    "encode_tool",
    "load_cassette",
    "parse_cassette",
    "read_cassettes",
    "recorded_request_problem",
]

CASSETTE_SCHEMA = "artemiskit.cassette"
"""The ``schema`` of a cassette's header line."""
CASSETTE_SCHEMA_VERSION = 1
"""The cassette schema version this release writes and reads."""
MAX_CASSETTE_BYTES = 256 * 1024 * 1024
"""The largest cassette read (256 MiB)."""

ExchangeKind = Literal["model", "judge"]


@attrs.frozen(kw_only=True)
class CassetteHeader:
    """What a cassette is bound to: workflow contract, case and target.

    Attributes:
        workflow: The workflow's name.
        contract_digest: The digest of the workflow's contract.
        case_id: The dataset case the run executed, ``None`` without a dataset.
        target_id: The target's id (``PROVIDER:MODEL``, or an agent's name).
        provider: The provider entry (or agent) the run was recorded against.
        model: The model the run was recorded against.
        transport_digest: The recorded target's transport digest, if any.
    """

    workflow: str
    contract_digest: str
    case_id: str | None
    target_id: str
    provider: str
    model: str
    transport_digest: str | None = None


@attrs.frozen(kw_only=True, repr=False)
class CassetteExchange:
    """One recorded model exchange.

    Attributes:
        kind: ``model`` (a request of the run, preflight included) or ``judge``.
        step: Its position among the exchanges of its kind, from 1.
        recorded: The request as sent (``messages``, ``tools``,
            ``parameters``), or for an exchange read from a file, its line:
            parsed again only when `request` is asked for (to name the fields
            of a mismatch), so a suite's many cassettes hold no request as
            objects. Read it as `request`.
        request_digest: The digest of the request's canonical JSON.
        response: The response as received, or ``None`` when the request failed.
        error: The failure (``type``, ``reason``, ``message``), or ``None``.
        retries: The reasons of the accounted provider retries it took.
    """

    kind: ExchangeKind
    step: int
    recorded: Mapping[str, Any] | str
    request_digest: str
    response: TargetResponse | None = None
    error: Mapping[str, str] | None = None
    retries: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"CassetteExchange(kind={self.kind!r}, step={self.step})"

    @property
    def request(self) -> Mapping[str, Any]:
        """The request as sent: ``messages``, ``tools``, ``parameters``."""
        if isinstance(self.recorded, str):
            line = load_strict_json(
                self.recorded, bounded_numbers=False, lone_surrogates=True
            )
            request: Mapping[str, Any] = line["request"]
            return request
        return self.recorded


@attrs.frozen(kw_only=True, repr=False)
class Cassette:
    """A validated cassette: its header, its exchanges and its file's digest.

    Plain data: it pickles, so a suite ships it to the process or machine that
    runs the replay.
    """

    header: CassetteHeader
    exchanges: tuple[CassetteExchange, ...]
    digest: str
    #: Where it was read from, for messages about it.
    source: str = "<cassette>"

    def __repr__(self) -> str:
        return (
            f"Cassette(workflow={self.header.workflow!r}, "
            f"case_id={self.header.case_id!r}, target={self.header.target_id!r}, "
            f"exchanges={len(self.exchanges)})"
        )

    def of_kind(self, kind: ExchangeKind) -> tuple[CassetteExchange, ...]:
        """The exchanges of ``kind``, in order."""
        return tuple(e for e in self.exchanges if e.kind == kind)


@functools.cache
def cassette_schema() -> dict[str, Any]:
    """The JSON Schema of one cassette line, as shipped in the package."""
    text = (
        resources.files(__package__)
        .joinpath("cassette.v1.schema.json")
        .read_text("utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(kind: str) -> Callable[[Any], Any]:
    """The validator of one part of a cassette.

    ``header`` and ``end`` lines; ``exchange`` lines in outline (their
    ``request`` an object with its three fields, checked in full by
    `recorded_request_problem` only when a mismatch is explained, since replay
    itself reads only the request's digest); ``request``, a recorded request
    in full. The shipped schema accepts any line (``oneOf``); each line's kind
    is known from its place, so it is checked against that one alone.
    """
    import fastjsonschema

    defs = dict(cassette_schema()["$defs"])
    exchange = defs["exchange"]
    request = exchange["properties"]["request"]
    outline = {
        **exchange,
        "properties": {
            **exchange["properties"],
            "request": {"type": "object", "required": request["required"]},
        },
    }
    parts = {**defs, "exchange": outline, "request": request}
    return fastjsonschema.compile({"$defs": parts, "$ref": f"#/$defs/{kind}"})


def recorded_request_problem(request: Mapping[str, Any]) -> bool:
    """Whether a recorded request breaks the cassette schema (an edited cassette)."""
    import fastjsonschema

    try:
        _validator("request")(request)
    except fastjsonschema.JsonSchemaValueException:
        return True
    return False


def encode_message(message: Message) -> dict[str, Any]:
    """One message as sent, as JSON data."""
    return {
        "role": message.role,
        "content": message.content,
        "tool_calls": [_call(call) for call in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "is_error": message.is_error,
    }


def _call(call: ToolCall) -> dict[str, str]:
    return {"id": call.id, "name": call.name, "arguments": call.arguments}


def encode_tool(tool: ToolDefinition) -> dict[str, Any]:
    """One offered tool as sent, as JSON data."""
    return {
        "name": tool.name,
        "description": tool.description,
        "input_schema": dict(tool.input_schema),
    }


def encode_request(
    request: TargetRequest, parameters: Mapping[str, Any]
) -> dict[str, Any]:
    """The request as sent: messages, offered tools and parameters, as JSON data.

    Args:
        request: What the engine asked the target.
        parameters: The model settings sent with it (model, sampling); the
            output allowance is added from ``request``.
    """
    return {
        "messages": [encode_message(message) for message in request.messages],
        "tools": [encode_tool(tool) for tool in request.tools],
        "parameters": {
            **parameters,
            "max_output_tokens": request.max_output_tokens,
        },
    }


def encode_response(response: TargetResponse) -> dict[str, Any]:
    """The response as received: text, tool calls and usage, as JSON data."""
    usage = response.usage
    return {
        "text": response.text,
        "tool_calls": [_call(call) for call in response.tool_calls],
        "usage": None
        if usage is None
        else {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
        },
    }


def _decode_response(data: Mapping[str, Any]) -> TargetResponse:
    usage = data["usage"]
    return TargetResponse(
        text=data["text"],
        tool_calls=tuple(
            ToolCall(id=c["id"], name=c["name"], arguments=c["arguments"])
            for c in data["tool_calls"]
        ),
        usage=None
        if usage is None
        else Usage(
            input_tokens=usage["input_tokens"], output_tokens=usage["output_tokens"]
        ),
    )


def _line(value: Any) -> bytes:
    """One line of UTF-8 JSON.

    Text with a lone surrogate (a model may send one) is written with ASCII
    escapes, so the file stays valid UTF-8.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        escaped = json.dumps(value, separators=(",", ":"))
        return escaped.encode("ascii") + b"\n"


def header_line(header: CassetteHeader) -> dict[str, Any]:
    """The header line of a cassette bound to ``header``."""
    return {
        "schema": CASSETTE_SCHEMA,
        "schema_version": CASSETTE_SCHEMA_VERSION,
        "kind": "header",
        "workflow": {
            "name": header.workflow,
            "contract_digest": header.contract_digest,
        },
        "case_id": header.case_id,
        "target": {
            "id": header.target_id,
            "provider": header.provider,
            "model": header.model,
            "transport_digest": header.transport_digest,
        },
    }


def exchange_line(exchange: CassetteExchange) -> dict[str, Any]:
    """The line of one exchange."""
    return {
        "kind": exchange.kind,
        "step": exchange.step,
        "request": exchange.request,
        "request_digest": exchange.request_digest,
        "response": None
        if exchange.response is None
        else encode_response(exchange.response),
        "error": None if exchange.error is None else dict(exchange.error),
        "retries": list(exchange.retries),
    }


def encode_cassette(
    header: CassetteHeader, exchanges: Sequence[CassetteExchange]
) -> bytes:
    """The bytes of a cassette: header line, exchange lines, end line."""
    lines = [_line(header_line(header))]
    lines.extend(_line(exchange_line(exchange)) for exchange in exchanges)
    lines.append(_line({"kind": "end", "exchanges": len(exchanges)}))
    return b"".join(lines)


def _refuse(source: str, message: str, reason: str, line: int | None = None) -> Any:
    from artemiskit._problem import Problem

    return CassetteError(
        f"cassette {source}: {message}",
        [Problem(message=message, source=source, line=line)],
        reason=reason,
    )


def _header(value: Any, source: str) -> CassetteHeader:
    if not isinstance(value, dict) or value.get("kind") != "header":
        raise _refuse(
            source, "the first line is not a cassette header", "cassette_corrupt", 1
        )
    if value.get("schema") != CASSETTE_SCHEMA:
        raise _refuse(source, "not an ArtemisKit cassette", "cassette_corrupt", 1)
    if value.get("schema_version") != CASSETTE_SCHEMA_VERSION or isinstance(
        value.get("schema_version"), bool
    ):
        raise _refuse(
            source,
            f"unknown cassette schema_version (this release reads "
            f"{CASSETTE_SCHEMA_VERSION})",
            "cassette_version",
            1,
        )
    workflow, target = value["workflow"], value["target"]
    return CassetteHeader(
        workflow=workflow["name"],
        contract_digest=workflow["contract_digest"],
        case_id=value["case_id"],
        target_id=target["id"],
        provider=target["provider"],
        model=target["model"],
        transport_digest=target["transport_digest"],
    )


def parse_cassette(data: bytes, *, source: str) -> Cassette:
    """Validate a cassette's bytes whole and return it.

    Every line must be strict JSON satisfying the schema, the first a header of
    a known version, the exchanges numbered in order per kind, and the last the
    end line counting them. (A request's digest is what strict replay checks;
    the request itself is only read to name the fields of a mismatch.)

    Raises:
        CassetteError: Anything else (``cassette_corrupt``, ``cassette_version``).
    """
    if not data.endswith(b"\n"):
        raise _refuse(source, "the last line is incomplete", "cassette_corrupt")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _refuse(
            source, f"not valid UTF-8 (byte offset {exc.start})", "cassette_corrupt"
        ) from None
    lines = text.split("\n")[:-1]
    values: list[Any] = []
    kept: list[str] = []
    import fastjsonschema

    validators = {
        "header": _validator("header"),
        "end": _validator("end"),
        "exchange": _validator("exchange"),
    }
    for number, line in enumerate(lines, start=1):
        try:
            value = load_strict_json(line, bounded_numbers=False, lone_surrogates=True)
        except StrictJsonError as exc:
            raise _refuse(source, exc.message, "cassette_corrupt", number) from None
        if number == 1:
            header = _header(value, source)
        kind = value.get("kind") if isinstance(value, dict) else None
        try:
            validators.get(str(kind), validators["exchange"])(value)
        except fastjsonschema.JsonSchemaValueException:
            raise _refuse(
                source,
                "the line does not satisfy the cassette schema",
                "cassette_corrupt",
                number,
            ) from None
        # an exchange keeps its line, not its request as objects (see
        # `CassetteExchange.recorded`)
        if kind in ("model", "judge"):
            value["request"] = None
        values.append(value)
        kept.append(line)
    if not values:
        raise _refuse(source, "the file is empty", "cassette_corrupt")
    end = values[-1]
    if len(values) < 2 or end.get("kind") != "end":
        raise _refuse(
            source,
            "the end line is missing (cut short?)",
            "cassette_corrupt",
            len(values),
        )
    body = values[1:-1]
    if end["exchanges"] != len(body):
        raise _refuse(
            source,
            "the end line counts another number of exchanges",
            "cassette_corrupt",
            len(values),
        )
    steps = {"model": 0, "judge": 0}
    exchanges: list[CassetteExchange] = []
    for offset, value in enumerate(body, start=2):
        kind = value.get("kind")
        if kind not in steps:
            raise _refuse(
                source,
                "a header or end line among the exchanges",
                "cassette_corrupt",
                offset,
            )
        steps[kind] += 1
        if value["step"] != steps[kind]:
            raise _refuse(
                source,
                "the exchanges are not numbered in order",
                "cassette_corrupt",
                offset,
            )
        response = value["response"]
        if (response is None) == (value["error"] is None):
            raise _refuse(
                source,
                "an exchange holds neither or both of a response and an error",
                "cassette_corrupt",
                offset,
            )
        exchanges.append(
            CassetteExchange(
                kind=kind,
                step=value["step"],
                recorded=kept[offset - 1],
                request_digest=value["request_digest"],
                response=None if response is None else _decode_response(response),
                error=value["error"],
                retries=tuple(value["retries"]),
            )
        )
    return Cassette(
        header=header,
        exchanges=tuple(exchanges),
        digest=bytes_digest(data),
        source=source,
    )


def _read(path: str) -> bytes:
    from artemiskit._common._reading import _read_path

    return _read_path(path, "cassette", MAX_CASSETTE_BYTES)


async def load_cassette(path: str | os.PathLike[str]) -> Cassette:
    """Read and validate the whole cassette at ``path``.

    The file is opened without blocking and must be a regular file; all of it
    is read and checked before it is used, so a corrupt last line is refused
    before a run starts.

    Raises:
        CassetteError: The file is missing (``cassette_missing``), not a regular
            file (``cassette_not_regular``), too large, corrupt or of an unknown
            version (exit 2).
    """
    import anyio.to_thread

    source = os.fspath(path)
    data = await anyio.to_thread.run_sync(read_cassette_bytes, source)
    return parse_cassette(data, source=source)


def read_cassettes(sources: Sequence[str]) -> list[Cassette]:
    """Read and validate many cassettes in the calling thread, in order.

    A suite reads all of its cassettes at once, in one worker thread, rather
    than paying a thread hop per file.

    Raises:
        CassetteError: As `load_cassette`, for the first refused file.
    """
    return [
        parse_cassette(read_cassette_bytes(source), source=source) for source in sources
    ]


def read_cassette_bytes(source: str) -> bytes:
    """The bytes of the cassette file ``source`` (a regular file, bounded).

    Raises:
        CassetteError: Missing, unreadable, not a regular file, or too large.
    """
    try:
        data = _read(source)
    except FileAccessError as exc:
        if exc.reason == "file_not_regular":
            raise _refuse(
                source, "not a regular file", "cassette_not_regular"
            ) from None
        missing = not os.path.lexists(source)
        raise _refuse(
            source,
            "no such file" if missing else "cannot be read",
            "cassette_missing" if missing else "cassette_not_regular",
        ) from None
    if len(data) > MAX_CASSETTE_BYTES:
        raise _refuse(
            source,
            f"larger than {MAX_CASSETTE_BYTES // (1024 * 1024)} MiB",
            "cassette_corrupt",
        )
    return data
