"""The SDK's options as value objects: how a session runs, and its checkpointing.

Every entry point (`create_agent_workflow_session`, `ArtemisKit.create_workflow_session`
and `ArtemisKit.run_workflow`) takes a `RunOptions` as ``options=``, or the same
settings as keywords (`RunKeywords`); keywords override the fields of ``options``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

import attrs

from artemiskit.engine._scorer import Scorer
from artemiskit.engine._scorer_set import ScorerSet
from artemiskit.engine._transitions import MAX_LEDGER
from artemiskit.environments import EnvironmentFactory
from artemiskit.providers._replay import ReplayMode
from artemiskit.records._cassette import Cassette
from artemiskit.telemetry._protocol import TelemetrySource
from artemiskit.tools import Catalogue, Tool
from artemiskit.tools._mcp_config import McpServerConfig

__all__ = ["CheckpointOptions", "RunKeywords", "RunOptions", "merge_run_options"]


@attrs.frozen(kw_only=True)
class RunOptions:
    """How one session runs, whatever builds its target.

    Attributes:
        fixture_root: Where ``environment.fixture`` (and, through `ArtemisKit`,
            scripts) resolve. `ArtemisKit` defaults it to the workflow file's
            folder; an inline workflow that references a fixture needs it.
        environment: A custom environment factory; by default the workflow's
            ``environment.kind`` picks the registered one.
        cleanup_timeout_ms: The drain period for cancellation and cleanup
            (default 1,000 ms simulated / 6,000 ms sandbox, at most 10,000 ms).
        preflight: ``True`` probes the target before the turns (SPEC 6);
            ``"only"`` stops after the probe.
        pause_after_actions: Pause at the first safe boundary after this many
            actions of this attempt (needs checkpointing).
        ledger_limit: How many operations the ledger keeps (default 10,000);
            older ones are counted as omitted, the record discloses the
            truncation and trace assertions become unavailable.
        tools: User-defined tools (trusted host code) the workflow may declare,
            beside the built-in catalogue; the workflow must have been validated
            with the same tools. Through `ArtemisKit` they add to the kit's own.
        scorers: Custom scorers (trusted host code) that ``scorer`` outcomes may
            name. Through `ArtemisKit` they add to the kit's own.
        telemetry: Export the run as an OpenTelemetry trace (SPEC 25): an
            `artemiskit.telemetry.Telemetry` (needs ``artemiskit[otel]``).
        mcp_servers: The MCP servers (trusted configuration's ``mcp_servers``,
            by name) whose tools the workflow may declare; through `ArtemisKit`
            the configuration's by default.
        record_cassette: Keep every model exchange (judge calls included) in
            a cassette (SPEC 22): a new file path (written 0600; sensitive), or
            ``True`` to keep its bytes in the result only
            (`WorkflowResult.cassette`). On resume, the path of the paused
            run's cassette, which the resumed run continues.
        replay: Answer model requests from this cassette (a path or a loaded
            `artemiskit.records.Cassette`) instead of the live target; tools and
            environments still run for real.
        replay_mode: ``strict`` (default) stops the run at the first request
            that differs from the recorded one (``replay_mismatch``, exit 2);
            ``lenient`` checks only the position.
        replay_until: Replay this many model responses, then continue with the
            live target (a fork at step K); ``None`` replays them all.
    """

    fixture_root: str | os.PathLike[str] | None = None
    environment: EnvironmentFactory | None = None
    cleanup_timeout_ms: int | None = None
    preflight: bool | Literal["only"] = False
    pause_after_actions: int | None = None
    ledger_limit: int = MAX_LEDGER
    tools: Sequence[Tool] | Catalogue | None = None
    scorers: Sequence[Scorer] | ScorerSet | None = None
    telemetry: TelemetrySource | None = None
    mcp_servers: Mapping[str, McpServerConfig] | None = None
    record_cassette: str | os.PathLike[str] | bool | None = None
    replay: str | os.PathLike[str] | Cassette | None = None
    replay_mode: ReplayMode = "strict"
    replay_until: int | None = None


_DEFAULT_RUN_OPTIONS = RunOptions()


class RunKeywords(TypedDict, total=False):
    """The fields of `RunOptions`, accepted as keywords by every entry point."""

    fixture_root: str | os.PathLike[str] | None
    environment: EnvironmentFactory | None
    cleanup_timeout_ms: int | None
    preflight: bool | Literal["only"]
    pause_after_actions: int | None
    ledger_limit: int
    tools: Sequence[Tool] | Catalogue | None
    scorers: Sequence[Scorer] | ScorerSet | None
    telemetry: TelemetrySource | None
    mcp_servers: Mapping[str, McpServerConfig] | None
    record_cassette: str | os.PathLike[str] | bool | None
    replay: str | os.PathLike[str] | Cassette | None
    replay_mode: ReplayMode
    replay_until: int | None


def merge_run_options(options: RunOptions | None, keywords: RunKeywords) -> RunOptions:
    """``options`` (or the defaults) with the given keywords applied over it.

    Without keywords that is ``options`` itself (frozen: nothing to copy).
    """
    if not keywords:
        return options or _DEFAULT_RUN_OPTIONS
    return attrs.evolve(options or _DEFAULT_RUN_OPTIONS, **keywords)


@attrs.frozen(kw_only=True, repr=False)
class CheckpointOptions:
    """Explicit checkpointing for one run (SPEC 3.5).

    Attributes:
        directory: A private local directory (created 0700) for the checkpoint.
            It holds sensitive working data: keep it out of version control.
            ``None`` when a custom store is given instead (``checkpoint_store=``
            of `ArtemisKit.run_workflow` / `ArtemisKit.create_workflow_session`).
        mode: ``create`` for a fresh run, ``resume`` to continue a paused one.
        configuration_id: The host's attestation of its transport/credentials/
            implementation; change it whenever they change materially. ``None``
            derives one from the configured transport (and judge) digests, which
            only works for a target built from trusted configuration: with your
            own ``client`` or ``target`` it is required.
    """

    directory: str | os.PathLike[str] | None = None
    mode: Literal["create", "resume"] = "create"
    configuration_id: str | None = None

    def __repr__(self) -> str:
        return (
            f"CheckpointOptions(mode={self.mode!r}, "
            f"configuration_id={self.configuration_id!r})"
        )
