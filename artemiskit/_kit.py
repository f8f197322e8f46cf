"""The SDK front door: `ArtemisKit` and `create_agent_workflow_session`.

The workflow keeps authority over provider and model; trusted configuration only
supplies credentials and transport settings. Heavy backends (httpx for the OpenAI
client, aiodocker for the sandbox) are imported only when a run needs them.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Unpack

import attrs

from artemiskit._configured import (
    client_target,
    configured_target,
    derived_configuration_id,
    settings_for_judge,
)
from artemiskit._errors import (
    SessionStateError,
    WorkflowError,
)
from artemiskit._options import (
    CheckpointOptions,
    RunKeywords,
    RunOptions,
    merge_run_options,
)
from artemiskit.checkpoints import LocalCheckpointStore
from artemiskit.engine._plan import SessionPlan, check_cleanup_timeout
from artemiskit.engine._scorer_set import NO_SCORERS, ScorerSet, scorer_set
from artemiskit.engine._session import (
    WorkflowResult,
    WorkflowSession,
)
from artemiskit.environments import (
    EnvironmentFactory,
    EnvironmentOptions,
    SandboxSettings,
    create_environment_factory,
)
from artemiskit.providers import ScriptCase
from artemiskit.providers._config import TrustedConfig, load_trusted_config
from artemiskit.providers._judge_config import JudgeConfig
from artemiskit.records._record import CaseInfo, TargetInfo
from artemiskit.targets._identity import (
    AGENT_PROVIDER,
    TargetChoice,
    target_choices,
    unknown_entries,
)
from artemiskit.tools._catalogue import BUILTIN_CATALOGUE, Catalogue, catalogue_with
from artemiskit.workflow import (
    WorkflowCase,
    load_agent_workflow,
    load_case_workflows,
    parse_agent_workflow,
)
from artemiskit.workflow._model import Workflow
from artemiskit.workflow._retarget import with_target

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from artemiskit.checkpoints._store import CheckpointStore
    from artemiskit.engine._cassettes import RunCassette
    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.engine._preflight import PreflightMode
    from artemiskit.engine._scorer import Scorer
    from artemiskit.environments.sandbox._config import SandboxConfig
    from artemiskit.prompt_response import RunManifest, ScenarioRunOptions
    from artemiskit.providers import SharedTransports
    from artemiskit.suites import (
        SuiteKeywords,
        SuiteOptions,
        SuiteResult,
        SuiteSession,
    )
    from artemiskit.targets._protocol import (
        AgentTarget,
        ModelClient,
    )
    from artemiskit.tools._mcp_config import McpServerConfig
    from artemiskit.tools._mcp_tools import McpServers, McpToolSet
    from artemiskit.tools._tool import Tool

__all__ = ["ArtemisKit", "WorkflowSource", "create_agent_workflow_session"]

WorkflowSource = str | os.PathLike[str] | Workflow | WorkflowCase | Mapping[str, Any]
"""A workflow file path, a validated `Workflow`, one case of a workflow with
cases (`WorkflowCase`), or the workflow as a mapping (the parsed YAML: validated
like a file, with no fixture root of its own)."""


async def _case_from(
    source: object,
    case: str | None,
    catalogue: Catalogue,
    scorers: ScorerSet,
    root: str | os.PathLike[str] | None,
) -> WorkflowCase | None:
    """The case a session runs: the one given, or the id ``case`` of a file's.

    Raises:
        WorkflowError: ``case`` names no case of the file (``unknown_case``),
            or it is given for a source that is not a workflow file.
    """
    if isinstance(source, WorkflowCase):
        return source
    if case is None:
        return None
    if not isinstance(source, str | os.PathLike):
        raise WorkflowError(
            "case= picks a case of a workflow file with cases; pass the file's "
            "path (or a WorkflowCase)",
            reason="invalid_option",
        )
    cases = await load_case_workflows(
        source, tools=catalogue, scorers=scorers, fixture_root=root
    )
    return cases.case(case)


async def _workflow_from(
    source: object, catalogue: Catalogue, scorers: ScorerSet = NO_SCORERS
) -> Workflow:
    """The validated workflow ``source`` names or holds.

    Raises:
        WorkflowError: ``source`` is not a path, a `Workflow` or a mapping, or
            the mapping is not JSON data or breaks the contract (exit 2).
        FileAccessError: The file is missing or unreadable (exit 1).
    """
    if isinstance(source, Workflow):
        return source
    if isinstance(source, WorkflowCase):
        return source.workflow
    if isinstance(source, str | os.PathLike):
        return await load_agent_workflow(source, tools=catalogue, scorers=scorers)
    if isinstance(source, Mapping):
        try:
            text = json.dumps(dict(source), allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            raise WorkflowError(
                "the workflow mapping is not JSON data (strings, numbers, "
                "booleans, null, lists and mappings with string keys)",
                reason="invalid_workflow",
            ) from None
        return parse_agent_workflow(
            text, source="<mapping>", tools=catalogue, scorers=scorers
        )
    raise WorkflowError(
        "workflow must be a file path, a Workflow or a mapping, not "
        f"{type(source).__name__}",
        reason="invalid_option",
    )


def _environment_factory(
    workflow: Workflow,
    config: TrustedConfig | None,
    cleanup_timeout_ms: int | None,
) -> EnvironmentFactory:
    """The registered factory for the workflow's kind.

    The cleanup bound reaches the sandbox's own container removal, not only the
    session's drain, so it is checked before the factory is built.

    Raises:
        WorkflowError: ``cleanup_timeout_ms`` is out of range.
    """
    check_cleanup_timeout(cleanup_timeout_ms)
    return create_environment_factory(
        workflow.environment.kind,
        EnvironmentOptions(
            sandbox=_sandbox_settings(config.sandbox if config is not None else None),
            cleanup_timeout_ms=cleanup_timeout_ms,
        ),
    )


@functools.lru_cache(maxsize=16)
def _sandbox_settings(sandbox: SandboxConfig | None) -> SandboxSettings:
    """The sandbox settings of a configuration (frozen: one serves every session)."""
    overrides = {
        key: value
        for key, value in (attrs.asdict(sandbox) if sandbox else {}).items()
        if value is not None
    }
    return SandboxSettings(**overrides)


def create_agent_workflow_session(
    *,
    workflow: Workflow,
    target: AgentTarget,
    options: RunOptions | None = None,
    judge: JudgeSettings | None = None,
    checkpoint_store: CheckpointStore | None = None,
    checkpoint_mode: Literal["create", "resume"] = "create",
    configuration_id: str | None = None,
    provider_label: str | None = None,
    target_label: str | None = None,
    transport_digest: str | None = None,
    target_name: str | None = None,
    target_version: str | None = None,
    **run: Unpack[RunKeywords],
) -> WorkflowSession:
    """Create the low-level session for a validated workflow and a target.

    Args:
        workflow: A workflow from `load_agent_workflow` / `parse_agent_workflow`.
        target: The agent the engine drives.
        options: How the session runs (fixture root, environment, cleanup,
            preflight, pause, ledger limit, user-defined tools, scorers); see
            `RunOptions`. Its ``tools`` are the user-defined tools the workflow
            may declare (trusted host code); the workflow must have been
            validated with the same tools. Its ``scorers`` are the custom
            scorers ``scorer`` outcomes name.
        judge: The explicitly configured judge for ``judge`` outcomes.
        checkpoint_store: Where to checkpoint (explicit only); the environment
            must declare checkpoint support.
        checkpoint_mode: ``create`` a new checkpoint or ``resume`` a paused one.
        configuration_id: The host configuration identity the checkpoint is
            bound to; required with a ``checkpoint_store``, since the engine
            cannot look inside ``target``.
        provider_label: The provider name shown in the record (default: the
            workflow's ``target.provider``).
        target_label: How failure messages name the target, e.g. ``provider
            'local' (127.0.0.1:8080)`` (default: the provider and model).
        transport_digest: A digest of the effective transport configuration,
            bound into the record.
        target_name: The agent's name the record gives as ``target.id``
            (default: the target's class name; with ``provider_label``, the
            workflow's ``PROVIDER:MODEL``).
        target_version: The agent's version, if it has one (default: the
            target's ``version`` attribute when it is a string).
        **run: Any field of `RunOptions` as a keyword (`RunKeywords`); it
            overrides the same field of ``options``.

    Returns:
        A session ready to `run()`.

    Raises:
        WorkflowError: The workflow references a fixture and no root was given,
            the cleanup timeout or ledger limit is out of range, it declares a
            tool that is neither built in nor in ``tools``, or a ``scorer``
            outcome names no registered scorer or breaks its ``params_schema``.
        ToolDefinitionError: ``tools`` holds something that is not a `Tool`, or
            a name clashes with a built-in or another tool.
        SessionStateError: A ``checkpoint_store`` without a ``configuration_id``
            (``configuration_id_required``).
        UnsupportedError: No environment is registered for the workflow's kind.
    """
    settings = merge_run_options(options, run)
    info = _target_info(workflow, target, provider_label, target_name, target_version)
    plan = _planned(
        settings,
        workflow=workflow,
        target=target,
        target_info=_with_transport(info, transport_digest),
        catalogue=catalogue_with(settings.tools),
        scorers=scorer_set(settings.scorers),
        environment=settings.environment
        or _environment_factory(workflow, None, settings.cleanup_timeout_ms),
        fixture_root=settings.fixture_root,
        judge=judge,
        checkpoint_store=checkpoint_store,
        checkpoint_mode=checkpoint_mode,
        configuration_id=configuration_id,
        target_label=target_label,
    )
    return _new_session(plan, settings)


def _target_info(
    workflow: Workflow,
    target: AgentTarget,
    provider_label: str | None,
    name: str | None,
    version: str | None,
) -> TargetInfo:
    """Who the record names for a session given its target object (SPEC 19).

    An agent of your own is named, not the workflow's default model: by
    ``name``, else its class; with only a ``provider_label``, the workflow's
    model through that provider.
    """
    if name is None and provider_label is not None:
        return TargetInfo(
            provider=provider_label,
            model=workflow.target.model,
            id=f"{provider_label}:{workflow.target.model}",
        )
    if version is None:
        held = getattr(target, "version", None)
        version = held if isinstance(held, str) and held else None
    label = name or type(target).__name__
    return TargetInfo(provider=AGENT_PROVIDER, model=label, id=label, version=version)


def _planned(settings: RunOptions, **parts: Any) -> SessionPlan:
    """The session plan of ``parts`` under the run options ``settings``.

    The options a plan takes as they are (cleanup, preflight, pause, ledger,
    telemetry) come from ``settings``; ``parts`` give the rest (workflow, target,
    registries, checkpointing, identity), composed by the caller.
    """
    root = parts.pop("fixture_root", None)
    return SessionPlan(
        fixture_root=None if root is None else os.fspath(root),
        cleanup_timeout_ms=settings.cleanup_timeout_ms,
        preflight=_PREFLIGHT_MODES[settings.preflight],
        pause_after_actions=settings.pause_after_actions,
        ledger_limit=settings.ledger_limit,
        telemetry=None if settings.telemetry is None else settings.telemetry.for_run(),
        **parts,
    )


def _new_session(
    plan: SessionPlan,
    settings: RunOptions,
    *,
    mcp_servers: Mapping[str, McpServerConfig] | None = None,
    mcp_shared: McpServers | None = None,
) -> WorkflowSession:
    """Check the plan, add its MCP tools and cassettes, and make the session.

    ``mcp_servers`` are the configuration's, used unless ``settings`` names
    its own; ``mcp_shared`` the suite's ``lifetime: suite`` servers.
    """
    plan.check()
    servers = settings.mcp_servers if settings.mcp_servers is not None else mcp_servers
    mcp = _mcp_tools(plan, servers, mcp_shared)
    cassette = _run_cassette(settings, plan)
    if mcp is None and cassette is None:
        return WorkflowSession(plan)
    target, judge = plan.target, plan.judge
    if cassette is not None:
        target, judge = cassette.wire(target, judge, plan.workflow)
    return WorkflowSession(
        attrs.evolve(plan, target=target, judge=judge, mcp=mcp, cassette=cassette)
    )


def _with_transport(info: TargetInfo, digest: str | None) -> TargetInfo:
    """``info`` bound to the transport digest (the same object when it already is)."""
    if info.transport_digest == digest:
        return info
    return attrs.evolve(info, transport_digest=digest)


def _is_entry_choice(target: object) -> bool:
    """Whether ``target`` chooses a provider entry (configured like the workflow's)."""
    return isinstance(target, TargetChoice) and target.kind == "provider"


def _workflow_target(workflow: Workflow) -> TargetInfo:
    """The record's target for a run of the workflow's own entry and model."""
    spec = workflow.target
    return TargetInfo(
        provider=spec.provider,
        model=spec.model,
        id=f"{spec.provider}:{spec.model}",
    )


def _run_cassette(settings: RunOptions, plan: SessionPlan) -> RunCassette | None:
    """The run's cassettes (SPEC 22), or ``None`` when it neither records nor replays.

    Raises:
        WorkflowError: ``replay_mode`` or ``replay_until`` is out of range.
    """
    record = settings.record_cassette
    if settings.replay is None and (record is None or record is False):
        return None
    from artemiskit.engine._cassettes import RunCassette, contract_digest, target_id
    from artemiskit.records._cassette import CassetteHeader

    workflow, target = plan.workflow, plan.target_info
    return RunCassette(
        header=CassetteHeader(
            workflow=workflow.name,
            contract_digest=contract_digest(workflow),
            case_id=None if plan.case is None else plan.case.id,
            target_id=target.id or target_id(target.provider, target.model),
            provider=target.provider,
            model=target.model,
            transport_digest=target.transport_digest,
        ),
        replay=settings.replay,
        mode=settings.replay_mode,
        until=settings.replay_until,
        record=record,
        resume=plan.checkpoint_mode == "resume",
    )


async def _offline_target(
    settings: RunOptions,
) -> tuple[AgentTarget, str | None, RunOptions]:
    """The stand-in target of a full replay, with the recorded transport digest.

    The cassette is loaded here (and checked again with the session), so the
    record names the transport the responses were recorded from.
    """
    from artemiskit.providers._replay import OFFLINE
    from artemiskit.records._cassette import Cassette, load_cassette

    cassette = settings.replay
    if not isinstance(cassette, Cassette):
        assert cassette is not None
        cassette = await load_cassette(cassette)
        settings = attrs.evolve(settings, replay=cassette)
    return OFFLINE, cassette.header.transport_digest, settings


def _recorded_target(settings: RunOptions, workflow: Workflow) -> TargetInfo:
    """The target a full replay stands in for.

    The workflow's own entry and model, so that a cassette recorded on another
    is refused; but a cassette recorded from an agent of your own (no entry of
    the workflow's) names that agent, which no workflow can: no live target
    runs, so the record names the recorded agent.
    """
    from artemiskit.records._cassette import Cassette

    assert isinstance(settings.replay, Cassette)  # loaded by _offline_target
    header = settings.replay.header
    if header.provider != AGENT_PROVIDER:
        return _workflow_target(workflow)
    return TargetInfo(provider=header.provider, model=header.model, id=header.target_id)


def _mcp_tools(
    plan: SessionPlan,
    servers: Mapping[str, McpServerConfig] | None,
    shared: McpServers | None,
) -> McpToolSet | None:
    """The run's MCP tools (SPEC 24), or ``None`` when it declares none.

    Raises:
        ConfigError: A declared server is not configured (exit 1).
    """
    declarations = tuple(tool for tool in plan.workflow.tools if tool.mcp is not None)
    if not declarations:
        return None
    from artemiskit.tools._mcp_tools import McpToolSet

    tools = McpToolSet(
        declarations,
        servers or {},
        shared=shared,
        cleanup_s=plan.cleanup_bound_ms / 1000,
    )
    tools.check_configured()
    return tools


async def _suite_servers(
    shared: SharedTransports | None, workflow: Workflow
) -> McpServers | None:
    """The ``lifetime: suite`` MCP servers a suite shares with its runs, if any."""
    if shared is None or not any(tool.mcp for tool in workflow.tools):
        return None
    from artemiskit.tools._mcp_tools import SUITE_SERVERS_KEY

    async def none() -> McpServers | None:
        return None

    return await shared.get(SUITE_SERVERS_KEY, none)


def _folder_of(path: str | os.PathLike[str]) -> Path:
    """The absolute folder of a workflow file named by ``path`` (not normalized).

    Only the working directory is read (no file), so it runs inline: a
    worker-thread hop per session cost more than the rest of its setup. The
    folder of a name in a working directory is remembered (1000 sessions of
    one file parse its path once).
    """
    return _folder_in(os.getcwd(), os.fspath(path))


@functools.lru_cache(maxsize=64)
def _folder_in(directory: str, path: str) -> Path:
    """``Path(path).absolute().parent`` with ``directory`` as the working one."""
    return Path(directory, path).parent


_PREFLIGHT_MODES: dict[bool | str, PreflightMode] = {
    False: "off",
    True: "probe",
    "only": "only",
}


class ArtemisKit:
    """The convenience facade: builds the target from trusted configuration.

    Args:
        config: A loaded `TrustedConfig`, or the path of ``artemis.config.yaml``
            (read on first use). ``None`` means no provider entries: only the
            offline ``scripted`` provider and explicit clients/targets work.
        tools: User-defined tools (trusted host code) that workflows run by this
            kit may declare, beside the built-in catalogue.
        scorers: Custom scorers (trusted host code) that ``scorer`` outcomes of
            workflows run by this kit may name.

    Raises:
        ToolDefinitionError: ``tools`` holds something that is not a `Tool`, or a
            name clashes with a built-in or another tool.
        ScorerDefinitionError: ``scorers`` holds something that is not a
            `Scorer`, or two share a name.
    """

    def __init__(
        self,
        *,
        config: TrustedConfig | str | os.PathLike[str] | None = None,
        tools: Sequence[Tool] | None = None,
        scorers: Sequence[Scorer] | None = None,
    ) -> None:
        self._catalogue = catalogue_with(tools)
        self._scorers = scorer_set(scorers)
        self._tools = _registered(self._catalogue)
        self._config_source = config
        self._config: TrustedConfig | None = (
            config if isinstance(config, TrustedConfig) else None
        )

    async def _trusted_config(self) -> TrustedConfig:
        if self._config is None:
            if self._config_source is None or isinstance(
                self._config_source, TrustedConfig
            ):
                self._config = TrustedConfig()
            else:
                self._config = await load_trusted_config(self._config_source)
        return self._config

    async def create_workflow_session(
        self,
        *,
        workflow: WorkflowSource,
        client: ModelClient | None = None,
        target: AgentTarget | TargetChoice | None = None,
        provider_config: Mapping[str, object] | None = None,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        checkpoint: CheckpointOptions | None = None,
        checkpoint_store: CheckpointStore | None = None,
        options: RunOptions | None = None,
        shared_transports: SharedTransports | None = None,
        repetition: int = 1,
        case: str | None = None,
        **run: Unpack[RunKeywords],
    ) -> WorkflowSession:
        """Load the workflow, build its target and create a session.

        Args:
            workflow: A workflow file path, a validated `Workflow`, or the
                workflow as a mapping (validated like a file).
            client: A `ModelClient` to drive (trusted host code).
            target: An `AgentTarget` to drive (trusted host code; the record
                names it by its class, or its ``version`` too), or a
                `TargetChoice` that replaces the workflow's target: a provider
                entry and model (``parse_target("ENTRY:MODEL")``) or a named
                agent (`agent_choices`). The record names the target that ran
                (SPEC 19).
            provider_config: Overrides for the workflow's provider entry
                (e.g. ``{"api_key": ...}``), merged over the configuration.
            judge: A `JudgeSettings`, or the path of a judge configuration
                file; without one, ``judge`` outcomes are unavailable.
            checkpoint: Explicit checkpointing (create or resume).
            checkpoint_store: A custom `CheckpointStore` to checkpoint into,
                instead of ``checkpoint.directory``; ``checkpoint`` (without a
                directory) still gives the mode and configuration identity.
            options: How the session runs; see `RunOptions`. Its
                ``fixture_root`` (where fixtures and scripts resolve) defaults
                to the workflow file's folder.
            shared_transports: Connection pools to share with other sessions
                (a suite shares one per provider entry); the caller closes it.
            repetition: Which repetition of a suite this run is (from 1): a
                scripted provider answers with variant (repetition - 1) mod
                the number of its script's variants.
            case: For a workflow file with cases (SPEC 19), the id of the case
                to run: its expansion runs, a scripted provider replays that
                case's script, and the record names the case (id and digest).
            **run: Any field of `RunOptions` as a keyword (`RunKeywords`); it
                overrides the same field of ``options``.

        Returns:
            A session ready to `run()`.

        Raises:
            SessionStateError: Both ``client`` and ``target`` were given, or
                both a checkpoint directory and a ``checkpoint_store``, or
                neither (``invalid_option``); or checkpointing with a ``client``
                or ``target`` has no ``configuration_id``
                (``configuration_id_required``).
            WorkflowError: ``workflow`` is not a path, a `Workflow` or a
                mapping, or it breaks the contract.
            ConfigError: The provider entry is missing or lacks a credential.
            UnsupportedError: The provider type or the environment kind is not
                registered.
        """
        if client is not None and target is not None:
            raise SessionStateError(
                "pass either client or target, not both", reason="invalid_option"
            )
        directory = None if checkpoint is None else checkpoint.directory
        if checkpoint_store is not None and directory is not None:
            raise SessionStateError(
                "give a checkpoint directory or a checkpoint_store, not both",
                reason="invalid_option",
            )
        if checkpoint is not None and checkpoint_store is None and directory is None:
            raise SessionStateError(
                "checkpointing needs CheckpointOptions.directory or a checkpoint_store",
                reason="invalid_option",
            )
        if checkpoint_store is not None and checkpoint is None:
            checkpoint = CheckpointOptions()
        if (
            checkpoint is not None
            and checkpoint.configuration_id is None
            and (
                client is not None
                or (target is not None and not _is_entry_choice(target))
            )
        ):
            raise SessionStateError(
                "checkpointing with your own client or target needs an explicit "
                "CheckpointOptions.configuration_id: ArtemisKit cannot look inside "
                "it, so a resume under another client or target could not be told "
                "apart",
                reason="configuration_id_required",
            )
        settings = merge_run_options(options, run)
        catalogue = self._session_catalogue(settings.tools)
        scorers = self._session_scorers(settings.scorers)
        root = settings.fixture_root
        if root is None and isinstance(workflow, str | os.PathLike):
            root = _folder_of(workflow)
        chosen = await _case_from(workflow, case, catalogue, scorers, root)
        if chosen is not None:
            workflow = chosen
        loaded = await _workflow_from(workflow, catalogue, scorers)
        config = self._config
        if config is None:
            config = await self._trusted_config()
        digest = None
        label = None
        owns_target = False
        info: TargetInfo | None = None
        agent: AgentTarget | None = None
        if not isinstance(target, TargetChoice):
            agent = target
        elif target.kind == "provider":
            unknown = unknown_entries([target], config.providers, config.source)
            if unknown is not None:
                raise unknown
            # The workflow runs on the chosen entry and model; its parameters,
            # and everything else of its contract, stay.
            loaded = with_target(loaded, target)
        else:
            choice = target
            agent = choice.make()
            info = TargetInfo(
                provider=AGENT_PROVIDER,
                model=choice.model,
                id=choice.id,
                version=choice.version,
            )
        if agent is None and client is not None:
            agent = client_target(client, loaded)
            info = _workflow_target(loaded)
        elif (
            agent is None
            and settings.replay is not None
            and settings.replay_until is None
        ):
            # a full replay needs no live target: no transport, no credential
            agent, digest, settings = await _offline_target(settings)
            info = _recorded_target(settings, loaded)
        elif agent is None:
            owns_target = True
            agent, digest, label = await configured_target(
                loaded,
                config,
                provider_config,
                root,
                shared=shared_transports,
                repetition=repetition,
                case=None if chosen is None else ScriptCase(chosen.id, chosen.values),
            )
            info = _workflow_target(loaded)
        elif info is None:
            info = _target_info(loaded, agent, None, None, None)
        judge_settings = (
            None if judge is None else await settings_for_judge(judge, config)
        )
        store = checkpoint_store
        configuration_id = None
        if checkpoint is not None:
            if store is None:
                assert checkpoint.directory is not None  # checked above
                store = LocalCheckpointStore(checkpoint.directory)
            configuration_id = checkpoint.configuration_id or derived_configuration_id(
                digest, judge_settings
            )
        plan = _planned(
            settings,
            workflow=loaded,
            target=agent,
            target_info=_with_transport(info, digest),
            catalogue=catalogue,
            scorers=scorers,
            environment=settings.environment
            or _environment_factory(loaded, config, settings.cleanup_timeout_ms),
            fixture_root=root,
            judge=judge_settings,
            checkpoint_store=store,
            checkpoint_mode=checkpoint.mode if checkpoint else "create",
            configuration_id=configuration_id,
            target_label=label,
            owns_target=owns_target,
            owns_judge=judge is not None and judge_settings is not judge,
            case=None
            if chosen is None
            else CaseInfo(id=chosen.id, digest=chosen.digest),
        )
        return _new_session(
            plan,
            settings,
            mcp_servers=config.mcp_servers,
            mcp_shared=await _suite_servers(shared_transports, loaded),
        )

    def _session_catalogue(self, tools: Sequence[Tool] | Catalogue | None) -> Catalogue:
        """The kit's catalogue, plus the tools one session's options add."""
        if not tools or tools is self._catalogue:
            return self._catalogue
        if not self._tools:
            return catalogue_with(tools)
        added = _registered(tools) if isinstance(tools, Catalogue) else tools
        kept = {id(tool) for tool in self._tools}
        return catalogue_with(
            (*self._tools, *(tool for tool in added if id(tool) not in kept))
        )

    def _session_scorers(
        self, scorers: Sequence[Scorer] | ScorerSet | None
    ) -> ScorerSet:
        """The kit's scorers, plus those one session's options add."""
        if not scorers or scorers is self._scorers:
            return self._scorers
        added = list(scorers.values()) if isinstance(scorers, ScorerSet) else scorers
        kept = {id(scorer) for scorer in self._scorers.values()}
        return scorer_set(
            [
                *self._scorers.values(),
                *(scorer for scorer in added if id(scorer) not in kept),
            ]
        )

    async def run_workflow(
        self,
        *,
        workflow: WorkflowSource,
        client: ModelClient | None = None,
        target: AgentTarget | TargetChoice | None = None,
        provider_config: Mapping[str, object] | None = None,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        checkpoint: CheckpointOptions | None = None,
        checkpoint_store: CheckpointStore | None = None,
        options: RunOptions | None = None,
        case: str | None = None,
        **run: Unpack[RunKeywords],
    ) -> WorkflowResult:
        """Create a fresh session and run it once; see `create_workflow_session`."""
        session = await self.create_workflow_session(
            workflow=workflow,
            client=client,
            target=target,
            provider_config=provider_config,
            judge=judge,
            checkpoint=checkpoint,
            checkpoint_store=checkpoint_store,
            options=options,
            case=case,
            **run,
        )
        return await session.run()

    async def create_suite_session(
        self,
        *,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        options: SuiteOptions | None = None,
        **suite: Unpack[SuiteKeywords],
    ) -> SuiteSession:
        """Load and validate a suite (SPEC 13), ready to `run()`.

        Every workflow, script and fixture is checked before anything runs;
        workflows may declare the kit's user-defined tools, which every run uses.

        Args:
            paths: Workflow files or folders (every ``workflow.yaml`` and
                ``*.workflow.yaml`` / ``.yml`` below, sorted).
            options: What the suite does and where it writes; see
                `SuiteOptions` (output folder, repeat, concurrency, pass rate,
                suite budget, fail-fast, transcripts, judge, executor, and the
                ``targets`` every workflow runs on instead of its own, e.g.
                ``targets={"support-bot": make_agent}`` or
                ``targets=["openai:gpt-4.1-mini", "local:llama3.1"]``).
            **suite: Any field of `SuiteOptions` as a keyword (`SuiteKeywords`);
                it overrides the same field of ``options``.

        Raises:
            WorkflowError: A file is invalid, names repeat, a folder holds no
                workflow, an option is out of range, or a target is malformed,
                repeated or names an entry the configuration lacks (exit 2).
            ConfigError: An agent of ``targets`` makes no `AgentTarget`
                (exit 1).
            FileAccessError: The output folder is not new or empty (exit 1).
        """
        from artemiskit.suites import SuiteSettings
        from artemiskit.suites._create import create_suite_session
        from artemiskit.suites._options import merge_suite_options
        from artemiskit.suites._selection import CaseSelection

        chosen = merge_suite_options(options, suite)
        settings = SuiteSettings(
            repeat=chosen.repeat,
            concurrency=chosen.concurrency,
            min_pass_rate=chosen.min_pass_rate,
            max_suite_tokens=chosen.max_suite_tokens,
            fail_fast=chosen.fail_fast,
            transcripts=chosen.transcripts,
            max_errored=chosen.max_errored,
            gate=chosen.gate,
            cases=CaseSelection(
                ids=None if chosen.cases is None else tuple(chosen.cases),
                sample=chosen.sample,
                seed=chosen.seed,
            ),
        )
        config = await self._trusted_config()
        return await create_suite_session(
            self,
            config,
            [paths] if isinstance(paths, str | os.PathLike) else list(paths),
            settings=settings,
            output_dir=chosen.output_dir,
            executor=chosen.executor,
            judge=chosen.judge,
            cleanup_timeout_ms=chosen.cleanup_timeout_ms,
            telemetry=chosen.telemetry,
            record_cassettes=chosen.record_cassettes,
            replay=chosen.replay,
            replay_mode=chosen.replay_mode,
            replay_until=chosen.replay_until,
            tools=self._catalogue,
            scorers=self._scorers,
            remote_kit=functools.partial(
                _kit_on_worker,
                tools=self._tools,
                scorers=tuple(self._scorers.values()),
            ),
            targets=target_choices(chosen.targets),
        )

    async def run_suite(
        self,
        *,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        options: SuiteOptions | None = None,
        **suite: Unpack[SuiteKeywords],
    ) -> SuiteResult:
        """Create a suite session and run it; see `create_suite_session`."""
        session = await self.create_suite_session(paths=paths, options=options, **suite)
        return await session.run()

    async def run_scenario(
        self,
        path: str | os.PathLike[str],
        *,
        options: ScenarioRunOptions | None = None,
        judge: JudgeConfig | str | os.PathLike[str] | None = None,
    ) -> RunManifest:
        """Run a historical prompt-response scenario file (SPEC 17).

        The scenario's ``provider`` names an entry of this kit's trusted
        configuration. Nothing is saved: keep the manifest with
        `artemiskit.prompt_response.LocalStorage` if you want it stored.

        Args:
            path: The scenario file.
            options: The ``akit run`` settings (tags, concurrency, timeout,
                retries, redaction, overrides).
            judge: A judge configuration (or its path) for ``llm_grader`` and
                ``similarity``.

        Returns:
            The run manifest (it holds prompts and responses: sensitive).

        Raises:
            ScenarioError: The file is not a valid scenario.
            NoCasesError: The tag filter left no case.
            ConfigError: No model, or an unusable provider entry.
        """
        from artemiskit.prompt_response import load_scenario, run_scenario
        from artemiskit.prompt_response._targets import known_secrets
        from artemiskit.providers._judge_config import load_judge_config

        if judge is not None and not isinstance(judge, JudgeConfig):
            judge = await load_judge_config(judge)
        config = await self._trusted_config()
        scenario = await load_scenario(path, withheld=known_secrets(config, judge))
        return await run_scenario(scenario, options=options, config=config, judge=judge)


def _registered(catalogue: Catalogue) -> tuple[Tool, ...]:
    """The user-defined tools of ``catalogue``: everything but the built-ins."""
    return tuple(
        tool
        for name, tool in catalogue.items()
        if BUILTIN_CATALOGUE.get(name) is not tool
    )


def _kit_on_worker(
    make_config: Callable[[], TrustedConfig],
    *,
    tools: Sequence[Tool] | None,
    scorers: Sequence[Scorer] = (),
) -> ArtemisKit:
    """The kit a remote worker builds, with its configuration rebuilt there.

    No secret travels: keys and ``${NAME}`` values come from the worker's
    environment.
    """
    return ArtemisKit(config=make_config(), tools=tools, scorers=scorers)
