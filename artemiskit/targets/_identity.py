"""Which target a run uses, and its identity (SPEC 19).

A target is either a provider entry of the trusted configuration with a model
(``ENTRY:MODEL``, its id exactly that) or an agent of your own: a callable that
makes an `AgentTarget` (its id the agent's name, with an optional ``version``).
An agent's name holds no ``:``, so the two kinds of id never collide.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Literal

import attrs

from artemiskit._errors import ConfigError, WorkflowError
from artemiskit.targets._protocol import AgentTarget

__all__ = [
    "AGENT_PROVIDER",
    "AgentFactory",
    "TargetChoice",
    "agent_choices",
    "parse_target",
    "target_choices",
    "unknown_entries",
]

#: The record's ``target.provider`` of an agent of your own.
AGENT_PROVIDER = "agent"

AgentFactory = Callable[[], AgentTarget]
"""A callable that makes a fresh `AgentTarget` (called once per run)."""

#: An agent's name: a plain file name, so that it is also a safe folder name.
_AGENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
#: An entry name as the configuration allows it, and a model without controls.
_ENTRY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_MODEL = re.compile(r"[^\x00-\x20\x7f]{1,256}")
_VERSION_MAX = 128


@attrs.frozen(kw_only=True, repr=False)
class TargetChoice:
    """One target a suite (or a run) uses instead of the workflow's own.

    Attributes:
        id: The target's identity: ``ENTRY:MODEL``, or the agent's name.
        kind: ``provider`` (an entry of the trusted configuration) or ``agent``.
        provider: The entry; ``agent`` for an agent.
        model: The model; the agent's name for an agent.
        version: An agent's optional version.
        factory: For an agent, what makes its `AgentTarget` for each run.
    """

    id: str
    kind: Literal["provider", "agent"]
    provider: str
    model: str
    version: str | None = None
    factory: AgentFactory | None = attrs.field(default=None, eq=False)

    def __repr__(self) -> str:
        version = "" if self.version is None else f", version={self.version!r}"
        return f"TargetChoice(id={self.id!r}, kind={self.kind!r}{version})"

    def make(self) -> AgentTarget:
        """A fresh `AgentTarget` of this agent (one per run).

        Raises:
            ConfigError: This is no agent, the factory raised (its exception's
                type is named, never its text), or it returned something that
                is not an `AgentTarget` (``invalid_agent``).
        """
        if self.factory is None:
            raise ConfigError(
                f"target {self.id!r} is a provider entry, not an agent",
                reason="invalid_agent",
            )
        return _made(self.factory, f"agent {self.id!r}")


def parse_target(value: str) -> TargetChoice:
    """The target ``ENTRY:MODEL`` names: a provider entry and a model.

    Only the shape is checked here; whether the entry exists is a question for
    the trusted configuration.

    Raises:
        WorkflowError: Not ``ENTRY:MODEL`` (``invalid_target``, exit 2).
    """
    entry, colon, model = value.partition(":")
    if not colon or not _ENTRY.fullmatch(entry) or not _MODEL.fullmatch(model):
        raise WorkflowError(
            f"--target {_shown(value)}: expected ENTRY:MODEL, a provider entry of "
            "the trusted configuration and a model (e.g. openai:gpt-4.1-mini)",
            reason="invalid_target",
        )
    return TargetChoice(id=value, kind="provider", provider=entry, model=model)


def _shown(value: str) -> str:
    """``value`` quoted and shortened for a message (an option's own text)."""
    return repr(value[:80] + ("..." if len(value) > 80 else ""))


def _version_of(*holders: object) -> str | None:
    for holder in holders:
        version = getattr(holder, "version", None)
        if version is None:
            continue
        if (
            not isinstance(version, str)
            or not 0 < len(version) <= _VERSION_MAX
            or not version.isprintable()
        ):
            raise ConfigError(
                "an agent's version must be a printable string of 1 to "
                f"{_VERSION_MAX} characters",
                reason="invalid_agent",
            )
        return version
    return None


def _made(factory: Callable[[], Any], what: str) -> AgentTarget:
    try:
        made = factory()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # trusted host code: its text may hold secrets
        raise ConfigError(
            f"{what}: its factory raised {type(exc).__name__}", reason="invalid_agent"
        ) from None
    if isinstance(made, type) or not isinstance(made, AgentTarget):
        raise ConfigError(
            f"{what}: its factory returned a {type(made).__name__}, not an "
            "artemiskit.AgentTarget (an object with an async respond(request))",
            reason="invalid_agent",
        )
    return made


def _same(target: AgentTarget) -> AgentTarget:
    """The one target an agent given as an object serves every run with."""
    return target


def _agent(name: str, value: object) -> TargetChoice:
    if not isinstance(name, str) or not _AGENT_NAME.fullmatch(name):
        raise ConfigError(
            f"agent name {_shown(str(name))}: expected letters, digits, '.', '_' "
            "and '-' (at most 128, starting with a letter or digit)",
            reason="invalid_agent",
        )
    if not isinstance(value, type) and isinstance(value, AgentTarget):
        # One target serves every run (of a process: a worker process gets
        # its own copy, so the factory must be picklable, not a closure).
        factory: AgentFactory = functools.partial(_same, value)
        return TargetChoice(
            id=name,
            kind="agent",
            provider=AGENT_PROVIDER,
            model=name,
            version=_version_of(value),
            factory=factory,
        )
    if not callable(value):
        raise ConfigError(
            f"agent {name!r}: a {type(value).__name__} is neither an "
            "artemiskit.AgentTarget nor a callable that returns one",
            reason="invalid_agent",
        )
    sample = _made(value, f"agent {name!r}")
    return TargetChoice(
        id=name,
        kind="agent",
        provider=AGENT_PROVIDER,
        model=name,
        version=_version_of(value, sample),
        factory=value,
    )


def agent_choices(value: object) -> tuple[TargetChoice, ...]:
    """The agents ``value`` holds: a factory, or a mapping of names to factories.

    A factory is a callable returning an `AgentTarget` (a class with an async
    ``respond`` is one); it is called once here to check what it makes, and
    once per run. A mapping's values may also be `AgentTarget` objects (one
    serves every run). An agent's name is its mapping key, or the factory's
    ``__name__``; its ``version`` is an optional attribute of the factory or
    of the target it makes.

    Raises:
        ConfigError: A name is not a plain name, a value is neither a factory
            nor a target, a factory raised or returned something else, or a
            version is not a short string (``invalid_agent``, exit 1).
    """
    if isinstance(value, Mapping):
        if not value:
            raise ConfigError("the mapping of agents is empty", reason="invalid_agent")
        return tuple(_agent(name, item) for name, item in value.items())
    if isinstance(value, type) or (
        callable(value) and not isinstance(value, AgentTarget)
    ):
        name = getattr(value, "__name__", None)
        if not isinstance(name, str):
            raise ConfigError(
                f"a {type(value).__name__} has no __name__ to name the agent by: "
                "give a mapping of names to factories",
                reason="invalid_agent",
            )
        return (_agent(name, value),)
    raise ConfigError(
        f"a {type(value).__name__} is neither a callable returning an "
        "artemiskit.AgentTarget nor a mapping of names to such callables",
        reason="invalid_agent",
    )


def target_choices(
    targets: Sequence[str | TargetChoice] | Mapping[str, object] | None,
) -> tuple[TargetChoice, ...]:
    """The suite's targets from what the SDK accepts, each id once.

    Args:
        targets: A mapping of agent names to `AgentTarget` objects or factories
            (`agent_choices`), or a sequence of ``ENTRY:MODEL`` strings and
            `TargetChoice` objects; ``None`` or empty: each workflow's own.

    Raises:
        WorkflowError: A malformed ``ENTRY:MODEL``, a repeated id, or neither a
            mapping nor a sequence (``invalid_target``, exit 2).
        ConfigError: An agent is refused (``invalid_agent``, exit 1).
    """
    if targets is None:
        return ()
    chosen: tuple[TargetChoice, ...]
    if isinstance(targets, Mapping):
        chosen = agent_choices(targets) if targets else ()
    elif isinstance(targets, str) or not isinstance(targets, Sequence):
        raise WorkflowError(
            "targets must be a mapping of agent names to targets or factories, or "
            "a list of ENTRY:MODEL strings and TargetChoice objects",
            reason="invalid_target",
        )
    else:
        items = []
        for item in targets:
            if isinstance(item, TargetChoice):
                items.append(item)
            elif isinstance(item, str):
                items.append(parse_target(item))
            else:
                raise WorkflowError(
                    f"a target must be an ENTRY:MODEL string or a TargetChoice, "
                    f"not a {type(item).__name__}",
                    reason="invalid_target",
                )
        chosen = tuple(items)
    return _unique(chosen)


def _unique(chosen: tuple[TargetChoice, ...]) -> tuple[TargetChoice, ...]:
    seen: set[str] = set()
    for choice in chosen:
        if choice.id in seen:
            raise WorkflowError(
                f"target {choice.id!r} is given twice; each target runs once per unit",
                reason="invalid_target",
            )
        seen.add(choice.id)
    return chosen


def unknown_entries(
    choices: Sequence[TargetChoice], entries: Collection[str], source: str | None
) -> WorkflowError | None:
    """The refusal of chosen provider entries a configuration lacks, if any.

    Args:
        choices: The chosen targets.
        entries: The provider entries of the trusted configuration.
        source: The configuration's file, or ``None`` when none was given.

    Returns:
        A `WorkflowError` (``unknown_target``, exit 2) naming the missing
        targets and listing the entries, or ``None`` when every entry exists
        (``scripted`` is built in).
    """
    missing = [
        choice.id
        for choice in choices
        if choice.kind == "provider"
        and choice.provider not in entries
        and choice.provider != "scripted"
    ]
    if not missing:
        return None
    names = ", ".join(repr(name) for name in sorted(entries)) or "none"
    where = (
        "no trusted configuration was given (--config)"
        if source is None
        else f"the trusted configuration {source} has no such entry"
    )
    return WorkflowError(
        f"--target {', '.join(repr(m) for m in missing)}: {where}; its entries: "
        f"{names} (`scripted` is built in)",
        reason="unknown_target",
    )
