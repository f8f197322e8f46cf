"""What a shipped run carries: the files a workflow names, and no secret (SPEC 15).

A run executed out of the suite's process (a Ray task, a worker process) travels
as a `RemoteRun`: plain, picklable data. It gets the workflow's script (for the
offline ``scripted`` provider) and its fixture, each read from where the run
would read it, and nothing else of the workflow's folder (no ``.env``, no
``.git/``, no old transcripts). It gets the trusted configuration as written,
with ``${NAME}`` variables left for the worker to expand from its own
environment, and without inline ``api_key`` values: a suite whose workflows use
an entry with an inline key is refused before anything runs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._paths import script_reference
from artemiskit._common._yaml import ParsedYaml
from artemiskit._errors import ConfigError
from artemiskit.providers._config import TrustedConfig, build_trusted_config
from artemiskit.providers._registry import ScriptVariants
from artemiskit.targets import TargetChoice
from artemiskit.workflow import Workflow, WorkflowCase

if TYPE_CHECKING:
    from collections.abc import Collection
    from pathlib import Path

    from artemiskit.suites._discovery import SuiteWorkflow

__all__ = ["MAX_SHIPPED_BYTES", "RemoteRun", "named_files", "worker_config"]

#: The most the files of one workflow may weigh to be shipped with each of its runs.
MAX_SHIPPED_BYTES = 64 * 1024 * 1024
#: A ``${NAME}`` (or ``${NAME:-default}``) variable in a configuration value.
_VARIABLE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}")
_KEY_NAMES = ("api_key", "apiKey")


@attrs.frozen(kw_only=True, repr=False)
class RemoteRun:
    """One run as shipped to a worker: all it needs, nothing it must find there.

    Attributes:
        key: The run's identity in the executor's start ledger.
        make_kit: Builds the session factory (a `SessionFactory`) on the
            worker from the trusted configuration and tools, never a resolved
            key.
        workflow: The validated workflow, on the unit's target.
        files: The files the workflow names, by relative POSIX path (its
            script and fixture; `named_files`).
        repetition: The repetition, from 1.
        files_key: Which unit's files ``files`` are (workflow and target): a
            worker that holds them already may be sent the run without them.
        case: The unit's case as the driver expanded it (SPEC 19), or ``None``
            for a workflow without cases: the dataset itself never travels.
        target: The unit's chosen target (a provider entry and model, or an
            agent), or ``None`` for the workflow's own.
        judge: The judge for ``judge`` outcomes, if any.
        cleanup_timeout_ms: The run's cleanup drain period.
        script: The ``scripted`` provider's script as the driver validated
            it (its response lists and digest): the run replays it, as a
            local run does, instead of parsing the shipped file again.
        run_options: Further `RunOptions` fields of the run as plain data (its
            cassette to replay, whether to record one; SPEC 22).
        working_data: Whether the run's final state and transcript (sensitive
            working data) come back with its record: the suite asks for them
            only where it keeps them (no output folder, or transcripts).
    """

    key: str
    make_kit: Callable[[], Any]
    workflow: Workflow
    files: Mapping[str, bytes]
    repetition: int
    files_key: str = ""
    case: WorkflowCase | None = None
    target: TargetChoice | None = None
    judge: Any = None
    cleanup_timeout_ms: int | None = None
    script: ScriptVariants | None = None
    run_options: Mapping[str, Any] = attrs.field(factory=dict)
    working_data: bool = True

    def __repr__(self) -> str:
        return f"RemoteRun(key={self.key!r}, repetition={self.repetition})"


def named_files(item: SuiteWorkflow, config: TrustedConfig) -> dict[str, bytes]:
    """The files a run of ``item`` reads, by the relative name a worker reads them at.

    The script of a ``scripted`` target (``MODEL.script.yaml`` below the
    workflow's folder, or below the entry's ``scripts_dir``) goes at the root
    of the worker's folder (`worker_config` drops ``scripts_dir``); the fixture
    at its reference. A workflow loaded without its script (a full replay)
    ships none.

    Raises:
        ConfigError: The files weigh more than `MAX_SHIPPED_BYTES`
            (``folder_too_large``).
    """
    root = item.path.absolute().parent
    workflow = item.workflow
    wanted: dict[str, Path] = {}
    fixture = workflow.environment.fixture
    if fixture is not None:
        wanted[fixture] = root / fixture
    provider = workflow.target.provider
    entry = config.providers.get(provider)
    scripted = (entry is None and provider == "scripted") or (
        entry is not None and entry.type == "scripted"
    )
    # a full replay (SPEC 22) read no script: its cassettes answer instead
    if scripted and item.script is not None:
        base = root
        if entry is not None and entry.scripts_dir is not None:
            base = root / entry.scripts_dir
        reference = script_reference(workflow.target.model)
        wanted[reference] = base / reference
    files: dict[str, bytes] = {}
    total = 0
    for name, path in wanted.items():
        data = path.read_bytes()
        total += len(data)
        if total > MAX_SHIPPED_BYTES:
            raise ConfigError(
                f"a workflow's files weigh more than {MAX_SHIPPED_BYTES} bytes: "
                "too much to ship with each run",
                reason="folder_too_large",
            )
        files[name] = data
    return files


def _inline_key(config: TrustedConfig, name: str) -> bool:
    """Whether entry ``name`` holds its key itself (not through a variable)."""
    entry = config.providers.get(name)
    if entry is None or entry.api_key is None:
        return False
    if config.unexpanded is None:
        return True
    raw = config.unexpanded.get("providers", {}).get(name, {})
    written = next((raw[key] for key in _KEY_NAMES if key in raw), None)
    return not (isinstance(written, str) and _VARIABLE.search(written))


def _shipped_entry(raw: Any, scripted: bool) -> Any:
    if not isinstance(raw, dict):
        return raw
    # A literal key stays on the driver; a ``${NAME}`` key resolves on the worker.
    entry = {
        key: value
        for key, value in raw.items()
        if key not in _KEY_NAMES or (isinstance(value, str) and _VARIABLE.search(value))
    }
    if scripted:
        entry.pop("scripts_dir", None)
    return entry


def _rebuild(data: dict[str, Any], source: str) -> TrustedConfig:
    """Build the configuration on the worker, from its own environment."""
    doc = ParsedYaml(data=data, source=source, positions={}, key_positions={})
    return build_trusted_config(doc, data, source)


def _as_given(config: TrustedConfig) -> TrustedConfig:
    return config


def worker_config(
    config: TrustedConfig, used: Collection[str]
) -> Callable[[], TrustedConfig]:
    """A picklable function that builds ``config`` on a worker, without secrets.

    Args:
        config: The driver's trusted configuration.
        used: The provider entries the suite's runs use.

    Returns:
        For a configuration read from a file, a rebuild of the file's data with
        inline keys removed, expanding ``${NAME}`` from the worker's
        environment; for one built in code, the same entries without inline keys.
        A ``scripted`` entry loses ``scripts_dir`` (its script is shipped at the
        root, see `named_files`).

    Raises:
        ConfigError: A used entry holds an inline ``api_key`` (``inline_key``):
            keys do not travel, give ``api_key_env`` instead.
    """
    inline = sorted(name for name in used if _inline_key(config, name))
    if inline:
        names = ", ".join(repr(name) for name in inline)
        raise ConfigError(
            f"provider {names} holds its API key inline: keys never travel to "
            "workers; give api_key_env (or api_key: ${NAME}) so each worker reads "
            "the key from its own environment",
            reason="inline_key",
        )
    scripted = {n for n, entry in config.providers.items() if entry.type == "scripted"}
    if config.unexpanded is None:
        entries = {
            name: attrs.evolve(
                entry,
                api_key=None,
                scripts_dir=None if name in scripted else entry.scripts_dir,
            )
            for name, entry in config.providers.items()
            if not _inline_key(config, name)
        }
        return functools.partial(
            _as_given, attrs.evolve(config, providers=entries, unexpanded=None)
        )
    data = dict(config.unexpanded)
    providers = data.get("providers")
    if isinstance(providers, dict):
        data["providers"] = {
            name: _shipped_entry(raw, name in scripted)
            for name, raw in providers.items()
            if not _inline_key(config, name)
        }
    return functools.partial(_rebuild, data, config.source or "<configuration>")
