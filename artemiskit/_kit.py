"""The SDK front door: `ArtemisKit` and `create_agent_workflow_session`.

The workflow keeps authority over provider and model; trusted configuration only
supplies credentials and transport settings. Heavy backends (httpx for the OpenAI
client, aiodocker for the sandbox) are imported only when a run needs them.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

import anyio
import attrs

from artemiskit._digests import bytes_digest, json_digest
from artemiskit._errors import (
    ConfigError,
    SessionStateError,
    UnsupportedError,
    WorkflowError,
)
from artemiskit.config._config import ProviderConfig, TrustedConfig, load_trusted_config
from artemiskit.config._judge import load_judge_config
from artemiskit.engine._judge import JudgeSettings
from artemiskit.engine._session import WorkflowResult, WorkflowSession
from artemiskit.engine._state import LocalState
from artemiskit.engine._tool_invocation import initial_sections
from artemiskit.engine._transitions import MAX_LEDGER
from artemiskit.providers._digest import credential_digest, transport_digest
from artemiskit.records._record import TargetInfo
from artemiskit.targets._protocol import (
    AgentTarget,
    ModelClient,
    TargetRequest,
    TargetResponse,
    create_model_client_target,
)
from artemiskit.targets._scripted import ScriptedTarget, load_script_below
from artemiskit.tools._catalogue import Catalogue, catalogue_with
from artemiskit.workflow import load_agent_workflow
from artemiskit.workflow._model import Workflow

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.checkpoints._store import CheckpointStore
    from artemiskit.engine._preflight import PreflightMode
    from artemiskit.environments._base import EnvironmentFactory
    from artemiskit.suites import SuiteExecutor, SuiteResult, SuiteSession
    from artemiskit.tools._tool import Tool

__all__ = ["ArtemisKit", "CheckpointOptions", "create_agent_workflow_session"]

WorkflowSource = str | os.PathLike[str] | Workflow


def _environment_factory(
    workflow: Workflow,
    config: TrustedConfig | None,
    cleanup_timeout_ms: int | None,
) -> EnvironmentFactory:
    """The built-in factory for the workflow's kind.

    The cleanup bound reaches the sandbox's own container removal, not only the
    session's drain.
    """
    if workflow.environment.kind == "simulated":
        from artemiskit.environments._simulated import SimulatedFactory

        return SimulatedFactory()
    from artemiskit.environments._sandbox import DockerSandboxFactory, SandboxSettings

    sandbox = config.sandbox if config is not None else None
    overrides = {
        key: value
        for key, value in (attrs.asdict(sandbox) if sandbox else {}).items()
        if value is not None
    }
    if cleanup_timeout_ms is None:
        return DockerSandboxFactory(SandboxSettings(**overrides))
    return DockerSandboxFactory(
        SandboxSettings(**overrides), cleanup_timeout_ms=cleanup_timeout_ms
    )


def create_agent_workflow_session(
    *,
    workflow: Workflow,
    target: AgentTarget,
    fixture_root: str | os.PathLike[str] | None = None,
    environment: EnvironmentFactory | None = None,
    cleanup_timeout_ms: int | None = None,
    provider_label: str | None = None,
    target_label: str | None = None,
    transport_digest: str | None = None,
    preflight: bool | Literal["only"] = False,
    judge: JudgeSettings | None = None,
    checkpoint_store: CheckpointStore | None = None,
    checkpoint_mode: Literal["create", "resume"] = "create",
    configuration_id: str | None = None,
    pause_after_actions: int | None = None,
    ledger_limit: int = MAX_LEDGER,
    tools: Sequence[Tool] | Catalogue | None = None,
) -> WorkflowSession:
    """Create the low-level session for a validated workflow and a target.

    Args:
        workflow: A workflow from `load_agent_workflow` / `parse_agent_workflow`.
        target: The agent the engine drives.
        fixture_root: Where ``environment.fixture`` resolves; required when the
            workflow references a fixture.
        environment: The environment factory; by default the workflow's
            ``environment.kind`` picks the built-in one.
        cleanup_timeout_ms: The drain period for cancellation and cleanup
            (default 1,000 ms simulated / 6,000 ms sandbox, at most 10,000 ms).
        provider_label: The provider name shown in the record (default: the
            workflow's ``target.provider``).
        target_label: How failure messages name the target, e.g. ``provider
            'local' (127.0.0.1:8080)`` (default: the provider and model).
        transport_digest: A digest of the effective transport configuration,
            bound into the record.
        preflight: ``True`` probes the target before the turns (SPEC 6);
            ``"only"`` stops after the probe.
        judge: The explicitly configured judge for ``judge`` outcomes.
        checkpoint_store: Where to checkpoint (explicit only); the environment
            must declare checkpoint support.
        checkpoint_mode: ``create`` a new checkpoint or ``resume`` a paused one.
        configuration_id: The host configuration identity the checkpoint is
            bound to; required with a ``checkpoint_store``, since the engine
            cannot look inside ``target``.
        pause_after_actions: Pause at the first safe boundary after this many
            actions of this attempt (needs a checkpoint store).
        ledger_limit: How many operations the ledger keeps (default 10,000);
            older ones are counted as omitted, the record discloses the
            truncation and trace assertions become unavailable.
        tools: User-defined tools the workflow may declare (trusted host code);
            the workflow must have been validated with the same tools.

    Returns:
        A session ready to `run()`.

    Raises:
        WorkflowError: The workflow references a fixture and no root was given,
            the cleanup timeout or ledger limit is out of range, or it declares a
            tool that is neither built in nor in ``tools``.
        ToolDefinitionError: ``tools`` holds something that is not a `Tool`, or
            a name clashes with a built-in or another tool.
        SessionStateError: A ``checkpoint_store`` without a ``configuration_id``
            (``configuration_id_required``).
    """
    if workflow.environment.fixture is not None and fixture_root is None:
        raise WorkflowError(
            "the workflow references environment.fixture, so a fixture_root is "
            "required",
            reason="fixture_root_required",
        )
    if checkpoint_store is not None and configuration_id is None:
        raise SessionStateError(
            "checkpointing needs an explicit configuration_id: the engine cannot "
            "look inside the target, so a resume under another target could not "
            "be told apart",
            reason="configuration_id_required",
        )
    if cleanup_timeout_ms is not None and not 1 <= cleanup_timeout_ms <= 10_000:
        raise WorkflowError(
            "cleanup_timeout_ms must be between 1 and 10000", reason="invalid_option"
        )
    if isinstance(ledger_limit, bool) or not (
        isinstance(ledger_limit, int) and 1 <= ledger_limit <= MAX_LEDGER
    ):
        raise WorkflowError(
            f"ledger_limit must be between 1 and {MAX_LEDGER}", reason="invalid_option"
        )
    catalogue = catalogue_with(tools)
    unknown = [tool.name for tool in workflow.tools if tool.name not in catalogue]
    if unknown:
        raise WorkflowError(
            f"the workflow declares tools that are neither built in nor registered: "
            f"{', '.join(unknown)} (register them with tools=[...] or --tools "
            "MODULE:ATTR)",
            reason="unknown_tool",
        )
    spec = workflow.environment
    return WorkflowSession(
        workflow=workflow,
        target=target,
        environment=environment
        or _environment_factory(workflow, None, cleanup_timeout_ms),
        files=spec.files,
        local=LocalState(
            documents=dict(spec.state.documents),
            records=dict(spec.state.records),
            sections=initial_sections(catalogue, workflow),
        ),
        target_info=TargetInfo(
            provider=provider_label or workflow.target.provider,
            model=workflow.target.model,
            transport_digest=transport_digest,
        ),
        cleanup_timeout_ms=cleanup_timeout_ms,
        fixture_root=None if fixture_root is None else os.fspath(fixture_root),
        preflight=_PREFLIGHT_MODES[preflight],
        judge=judge,
        checkpoint_store=checkpoint_store,
        checkpoint_mode=checkpoint_mode,
        configuration_id=configuration_id,
        pause_after_actions=pause_after_actions,
        target_label=target_label,
        ledger_limit=ledger_limit,
        catalogue=catalogue,
    )


_PREFLIGHT_MODES: dict[bool | str, PreflightMode] = {
    False: "off",
    True: "probe",
    "only": "only",
}


@attrs.frozen(kw_only=True, repr=False)
class CheckpointOptions:
    """Explicit checkpointing for one run (SPEC 3.5).

    Attributes:
        directory: A private local directory (created 0700) for the checkpoint.
            It holds sensitive working data: keep it out of version control.
        mode: ``create`` for a fresh run, ``resume`` to continue a paused one.
        configuration_id: The host's attestation of its transport/credentials/
            implementation; change it whenever they change materially. ``None``
            derives one from the configured transport (and judge) digests, which
            only works for a target built from trusted configuration: with your
            own ``client`` or ``target`` it is required.
    """

    directory: str | os.PathLike[str]
    mode: Literal["create", "resume"] = "create"
    configuration_id: str | None = None

    def __repr__(self) -> str:
        return (
            f"CheckpointOptions(mode={self.mode!r}, "
            f"configuration_id={self.configuration_id!r})"
        )


class ArtemisKit:
    """The convenience facade: builds the target from trusted configuration.

    Args:
        config: A loaded `TrustedConfig`, or the path of ``artemis.config.yaml``
            (read on first use). ``None`` means no provider entries: only the
            offline ``scripted`` provider and explicit clients/targets work.
        tools: User-defined tools (trusted host code) that workflows run by this
            kit may declare, beside the built-in catalogue.

    Raises:
        ToolDefinitionError: ``tools`` holds something that is not a `Tool`, or a
            name clashes with a built-in or another tool.
    """

    def __init__(
        self,
        *,
        config: TrustedConfig | str | os.PathLike[str] | None = None,
        tools: Sequence[Tool] | None = None,
    ) -> None:
        self._catalogue = catalogue_with(tools)
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
        target: AgentTarget | None = None,
        provider_config: Mapping[str, object] | None = None,
        fixture_root: str | os.PathLike[str] | None = None,
        environment: EnvironmentFactory | None = None,
        cleanup_timeout_ms: int | None = None,
        preflight: bool | Literal["only"] = False,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        checkpoint: CheckpointOptions | None = None,
        pause_after_actions: int | None = None,
    ) -> WorkflowSession:
        """Load the workflow, build its target and create a session.

        Args:
            workflow: A workflow file path, or a validated `Workflow`.
            client: A `ModelClient` to drive (trusted host code).
            target: An `AgentTarget` to drive (trusted host code).
            provider_config: Overrides for the workflow's provider entry
                (e.g. ``{"api_key": ...}``), merged over the configuration.
            fixture_root: Where fixtures and scripts resolve; defaults to the
                workflow file's folder. An inline workflow that references a
                fixture needs it explicitly.
            environment: A custom environment factory.
            cleanup_timeout_ms: The cleanup drain period.
            preflight: Probe the target first (``True``) or only (``"only"``).
            judge: A `JudgeSettings`, or the path of a judge configuration
                file; without one, ``judge`` outcomes are unavailable.
            checkpoint: Explicit checkpointing (create or resume).
            pause_after_actions: Pause after this many actions of this attempt.

        Returns:
            A session ready to `run()`.

        Raises:
            SessionStateError: Both ``client`` and ``target`` were given
                (``invalid_option``), or ``checkpoint`` with a ``client`` or
                ``target`` has no ``configuration_id``
                (``configuration_id_required``).
            ConfigError: The provider entry is missing or lacks a credential.
            UnsupportedError: The provider type cannot run here.
        """
        if client is not None and target is not None:
            raise SessionStateError(
                "pass either client or target, not both", reason="invalid_option"
            )
        if (
            checkpoint is not None
            and checkpoint.configuration_id is None
            and (client is not None or target is not None)
        ):
            raise SessionStateError(
                "checkpointing with your own client or target needs an explicit "
                "CheckpointOptions.configuration_id: ArtemisKit cannot look inside "
                "it, so a resume under another client or target could not be told "
                "apart",
                reason="configuration_id_required",
            )
        if isinstance(workflow, Workflow):
            loaded = workflow
            root = fixture_root
        else:
            loaded = await load_agent_workflow(workflow, tools=self._catalogue)
            root = fixture_root or (await anyio.Path(workflow).absolute()).parent
        config = await self._trusted_config()
        digest = None
        label = None
        if target is None and client is not None:
            target = _client_target(client, loaded)
        elif target is None:
            target, digest, label = await _configured_target(
                loaded, config, provider_config, root
            )
        judge_settings = (
            None if judge is None else await _judge_settings(judge, config, None)
        )
        store = None
        configuration_id = None
        if checkpoint is not None:
            from artemiskit.checkpoints import LocalCheckpointStore

            store = LocalCheckpointStore(checkpoint.directory)
            configuration_id = checkpoint.configuration_id or _derived_id(
                digest, judge_settings
            )
        return create_agent_workflow_session(
            workflow=loaded,
            target=target,
            fixture_root=root,
            environment=environment
            or _environment_factory(loaded, config, cleanup_timeout_ms),
            cleanup_timeout_ms=cleanup_timeout_ms,
            transport_digest=digest,
            target_label=label,
            preflight=preflight,
            judge=judge_settings,
            checkpoint_store=store,
            checkpoint_mode=checkpoint.mode if checkpoint else "create",
            configuration_id=configuration_id,
            pause_after_actions=pause_after_actions,
            tools=self._catalogue,
        )

    async def run_workflow(
        self,
        *,
        workflow: WorkflowSource,
        client: ModelClient | None = None,
        target: AgentTarget | None = None,
        provider_config: Mapping[str, object] | None = None,
        fixture_root: str | os.PathLike[str] | None = None,
        environment: EnvironmentFactory | None = None,
        cleanup_timeout_ms: int | None = None,
        preflight: bool | Literal["only"] = False,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        checkpoint: CheckpointOptions | None = None,
        pause_after_actions: int | None = None,
    ) -> WorkflowResult:
        """Create a fresh session and run it once; see `create_workflow_session`."""
        session = await self.create_workflow_session(
            workflow=workflow,
            client=client,
            target=target,
            provider_config=provider_config,
            fixture_root=fixture_root,
            environment=environment,
            cleanup_timeout_ms=cleanup_timeout_ms,
            preflight=preflight,
            judge=judge,
            checkpoint=checkpoint,
            pause_after_actions=pause_after_actions,
        )
        return await session.run()

    async def create_suite_session(
        self,
        *,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        output_dir: str | os.PathLike[str] | None = None,
        repeat: int = 1,
        concurrency: int = 4,
        min_pass_rate: float = 1.0,
        max_suite_tokens: int | None = None,
        fail_fast: bool = False,
        transcripts: bool = False,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        executor: SuiteExecutor | None = None,
        cleanup_timeout_ms: int | None = None,
    ) -> SuiteSession:
        """Load and validate a suite (SPEC 13), ready to `run()`.

        Every workflow, script and fixture is checked before anything runs;
        workflows may declare the kit's user-defined tools, which every run uses.

        Args:
            paths: Workflow files or folders (every ``workflow.yaml`` and
                ``*.workflow.yaml`` / ``.yml`` below, sorted).
            output_dir: A new or empty folder for ``suite.json`` and the
                records; ``None`` writes nothing.
            repeat: Runs per workflow.
            concurrency: Runs in flight at most (local executor).
            min_pass_rate: Exit 8 when a workflow's pass rate is below it.
            max_suite_tokens: Suite budget; unmeasured usage also stops starts.
            fail_fast: Start no run after the first that did not pass.
            transcripts: Keep conversations (sensitive; needs ``output_dir``).
            judge: The judge for ``judge`` outcomes.
            executor: Where runs execute (default: local, ``concurrency``).
            cleanup_timeout_ms: Each run's cleanup drain period.

        Raises:
            WorkflowError: A file is invalid, names repeat, a folder holds no
                workflow, or an option is out of range (exit 2).
            FileAccessError: The output folder is not new or empty (exit 1).
        """
        from artemiskit.suites import SuiteSettings
        from artemiskit.suites._create import create_suite_session

        settings = SuiteSettings(
            repeat=repeat,
            concurrency=concurrency,
            min_pass_rate=min_pass_rate,
            max_suite_tokens=max_suite_tokens,
            fail_fast=fail_fast,
            transcripts=transcripts,
        )
        return await create_suite_session(
            self,
            await self._trusted_config(),
            [paths] if isinstance(paths, str | os.PathLike) else list(paths),
            settings=settings,
            output_dir=output_dir,
            executor=executor,
            judge=judge,
            cleanup_timeout_ms=cleanup_timeout_ms,
            tools=self._catalogue,
        )

    async def run_suite(
        self,
        *,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        output_dir: str | os.PathLike[str] | None = None,
        repeat: int = 1,
        concurrency: int = 4,
        min_pass_rate: float = 1.0,
        max_suite_tokens: int | None = None,
        fail_fast: bool = False,
        transcripts: bool = False,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        executor: SuiteExecutor | None = None,
        cleanup_timeout_ms: int | None = None,
    ) -> SuiteResult:
        """Create a suite session and run it; see `create_suite_session`."""
        session = await self.create_suite_session(
            paths=paths,
            output_dir=output_dir,
            repeat=repeat,
            concurrency=concurrency,
            min_pass_rate=min_pass_rate,
            max_suite_tokens=max_suite_tokens,
            fail_fast=fail_fast,
            transcripts=transcripts,
            judge=judge,
            executor=executor,
            cleanup_timeout_ms=cleanup_timeout_ms,
        )
        return await session.run()


@attrs.frozen
class _ClosingTarget:
    """A target that owns a client to close once the run is over."""

    inner: AgentTarget
    aclose: Callable[[], Awaitable[None]]

    async def respond(self, request: TargetRequest) -> TargetResponse:
        return await self.inner.respond(request)


def _client_target(client: ModelClient, workflow: Workflow) -> AgentTarget:
    parameters = workflow.target.parameters
    return create_model_client_target(
        client,
        model=workflow.target.model,
        temperature=parameters.temperature,
        top_p=parameters.top_p,
        seed=parameters.seed,
    )


async def _configured_target(
    workflow: Workflow,
    config: TrustedConfig,
    overrides: Mapping[str, object] | None,
    fixture_root: str | os.PathLike[str] | None,
) -> tuple[AgentTarget, str | None, str | None]:
    parameters = workflow.target.parameters
    return await _provider_target(
        workflow.target.provider,
        workflow.target.model,
        config,
        overrides,
        fixture_root,
        temperature=parameters.temperature,
        top_p=parameters.top_p,
        seed=parameters.seed,
    )


async def _provider_target(
    name: str,
    model: str,
    config: TrustedConfig,
    overrides: Mapping[str, object] | None,
    fixture_root: str | os.PathLike[str] | None,
    *,
    temperature: float | None = None,
    top_p: float | None = None,
    seed: int | None = None,
) -> tuple[AgentTarget, str | None, str | None]:
    """Build the target of provider entry ``name``.

    Returns:
        The target, the digest of its transport (or script), and how failure
        messages name it (the entry and the host of its endpoint).
    """
    entry = config.providers.get(name)
    if entry is None:
        if name != "scripted":
            raise _unknown_provider(f"the workflow's provider {name!r}", config)
        entry = ProviderConfig(name="scripted", type="scripted")
    if overrides:
        entry = attrs.evolve(entry, **dict(overrides))  # type: ignore[arg-type]
    if entry.type == "scripted":
        base = Path(entry.scripts_dir or fixture_root or ".")
        if fixture_root is not None and entry.scripts_dir is not None:
            base = Path(fixture_root) / entry.scripts_dir
        script, raw = await load_script_below(base, model)
        return ScriptedTarget(entries=script), bytes_digest(raw), None
    if entry.type == "openai":
        from artemiskit.providers._openai import DEFAULT_BASE_URL, OpenAIClient

        api_key = entry.resolve_api_key()
        base_url = entry.base_url or DEFAULT_BASE_URL
        client = OpenAIClient(
            base_url=base_url,
            api_key=api_key,
            request_timeout_ms=entry.request_timeout_ms,
            extra_headers=entry.headers,
        )
        digest = "sha256:" + transport_digest(
            provider_type="openai",
            base_url=base_url,
            api_key=api_key,
            settings={
                "request_timeout_ms": entry.request_timeout_ms,
                "headers": {
                    name.lower(): credential_digest(value)
                    for name, value in sorted(entry.headers.items())
                },
            },
        )
        target = create_model_client_target(
            client, model=model, temperature=temperature, top_p=top_p, seed=seed
        )
        label = f"provider {entry.name!r} ({urlsplit(base_url).netloc})"
        return _ClosingTarget(target, client.aclose), digest, label
    raise UnsupportedError(
        f"provider type {entry.type!r} is not supported", reason="unsupported_target"
    )


def _unknown_provider(
    what: str, config: TrustedConfig, *, judge_source: str | None = None
) -> ConfigError:
    """Say which entries exist, and suggest a configuration only when none was given."""
    names = ", ".join(repr(n) for n in sorted(config.providers)) or "none"
    where = "the trusted configuration"
    if config.source is not None:
        where += f" {config.source}"
    if judge_source is not None:
        where = f"the judge configuration {judge_source} or {where}"
    if config.source is None and not config.providers and judge_source is None:
        return ConfigError(
            f"{what} has no entry: no trusted configuration was given (give --config "
            "/ ArtemisKit(config=...)); without one only `scripted` works",
            reason="unknown_provider",
        )
    return ConfigError(
        f"{what} has no entry in {where} (its entries: {names}; `scripted` is "
        "built in)",
        reason="unknown_provider",
    )


async def _judge_settings(
    judge: JudgeSettings | str | os.PathLike[str],
    config: TrustedConfig,
    fixture_root: str | os.PathLike[str] | None,
) -> JudgeSettings:
    if isinstance(judge, JudgeSettings):
        return judge
    judge_config = await load_judge_config(judge)
    providers = TrustedConfig(
        providers={**config.providers, **judge_config.providers.providers},
        sandbox=config.sandbox,
    )
    if judge_config.provider not in providers.providers and (
        judge_config.provider != "scripted"
    ):
        raise _unknown_provider(
            f"the judge's provider {judge_config.provider!r}",
            attrs.evolve(providers, source=config.source),
            judge_source=judge_config.source,
        )
    target, digest, _ = await _provider_target(
        judge_config.provider,
        judge_config.model,
        providers,
        None,
        Path(os.fspath(judge)).parent if fixture_root is None else fixture_root,
    )
    return JudgeSettings(
        target=target,
        provider=judge_config.provider,
        model=judge_config.model,
        max_requests=judge_config.max_requests,
        max_tokens=judge_config.max_tokens,
        timeout_ms=judge_config.timeout_ms,
        transport_digest=digest,
    )


def _derived_id(transport: str | None, judge: JudgeSettings | None) -> str:
    """A configuration identity derived from the transport and judge digests."""
    judge_part = None
    if judge is not None:
        judge_part = {
            "transport": judge.transport_digest,
            "model": judge.model,
            "limits": [judge.max_requests, judge.max_tokens, judge.timeout_ms],
        }
    return "derived:" + json_digest({"transport": transport, "judge": judge_part})
