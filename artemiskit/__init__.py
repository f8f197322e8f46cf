"""ArtemisKit: run LLM agent workflows under control and keep honest evidence.

Every public name is exported lazily: ``import artemiskit`` loads nothing but this
module, and ``artemiskit.NAME`` (or ``from artemiskit import NAME``) imports the one
module that defines NAME on first use. To export a new name, add its import under
``TYPE_CHECKING`` below: type checkers read it, and `export_lazily` reads the same
line to build ``__all__`` and the lazy lookup (``artemiskit._common._exports``).

The top level holds what running needs: the facade and session, the loaders,
suites, checkpoint stores, results, every error, and the scorer vocabulary
(scorers are the engine's, which is not a public module). The vocabulary for
writing your own tools, environments and model clients lives in those
submodules (docs/sdk.md maps every public module); names that moved warn for
one release.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    from artemiskit._common._host_objects import (
        import_host_attribute as import_host_attribute,
        import_host_objects as import_host_objects,
    )
    from artemiskit._errors import (
        ArtemisError as ArtemisError,
        CassetteError as CassetteError,
        CheckpointError as CheckpointError,
        ConfigError as ConfigError,
        EnvironmentFailureError as EnvironmentFailureError,
        FileAccessError as FileAccessError,
        FileOperationError as FileOperationError,
        FixtureError as FixtureError,
        InvalidResponseError as InvalidResponseError,
        ReplayMismatchError as ReplayMismatchError,
        RuntimeFailureError as RuntimeFailureError,
        ScorerDefinitionError as ScorerDefinitionError,
        SessionStateError as SessionStateError,
        TargetError as TargetError,
        ToolDefinitionError as ToolDefinitionError,
        UnsupportedError as UnsupportedError,
        WorkflowError as WorkflowError,
    )
    from artemiskit._exit_codes import (
        ExitCode as ExitCode,
    )
    from artemiskit._kit import (
        ArtemisKit as ArtemisKit,
        WorkflowSource as WorkflowSource,
        create_agent_workflow_session as create_agent_workflow_session,
    )
    from artemiskit._options import (
        CheckpointOptions as CheckpointOptions,
        RunKeywords as RunKeywords,
        RunOptions as RunOptions,
    )
    from artemiskit._problem import (
        Problem as Problem,
    )
    from artemiskit._version import (
        __version__ as __version__,
    )
    from artemiskit.checkpoints import (
        CheckpointStore as CheckpointStore,
        LocalCheckpointStore as LocalCheckpointStore,
    )
    from artemiskit.engine._events import (
        SessionEvent as SessionEvent,
    )
    from artemiskit.engine._judge import (
        JudgeSettings as JudgeSettings,
    )
    from artemiskit.engine._scorer import (
        Evidence as Evidence,
        Score as Score,
        Scorer as Scorer,
        ScorerHandler as ScorerHandler,
        ScoreStatus as ScoreStatus,
        ToolCallEvidence as ToolCallEvidence,
    )
    from artemiskit.engine._scorer_set import (
        ScorerSet as ScorerSet,
    )
    from artemiskit.engine._session import (
        WorkflowResult as WorkflowResult,
        WorkflowSession as WorkflowSession,
    )
    from artemiskit.environments._base import (
        Environment as Environment,
    )
    from artemiskit.providers._config import (
        TrustedConfig as TrustedConfig,
        load_trusted_config as load_trusted_config,
    )
    from artemiskit.records import (
        ExecutionRecord as ExecutionRecord,
    )
    from artemiskit.suites import (
        SuiteOptions as SuiteOptions,
        SuiteResult as SuiteResult,
    )
    from artemiskit.targets import (
        AgentTarget as AgentTarget,
        ModelClient as ModelClient,
        TargetRequest as TargetRequest,
        TargetResponse as TargetResponse,
        ToolCall as ToolCall,
        Usage as Usage,
        create_model_client_target as create_model_client_target,
    )
    from artemiskit.tools import (
        Tool as Tool,
    )
    from artemiskit.workflow import (
        Workflow as Workflow,
        load_agent_workflow as load_agent_workflow,
        parse_agent_workflow as parse_agent_workflow,
        validate_agent_workflow as validate_agent_workflow,
    )

    __all__: list[str]

    def __getattr__(name: str) -> typing.Any:
        """The deprecated names (each warns once per access), for type checkers."""
        ...


_NEVER_RAISED = (
    "is deprecated and will be removed in the next release: it is never raised; "
    "read the record's execution.status and exit_code instead"
)

#: Names the top level no longer exports, by the public module that now does:
#: the vocabulary for writing your own tools, environments and model clients
#: lives with them (docs/sdk.md).
_MOVED = {
    "artemiskit.environments": ("CleanupReport", "EnvironmentFactory"),
    "artemiskit.records": ("write_atomically",),
    "artemiskit.targets": ("Message", "ModelRequest", "ToolDefinition"),
    "artemiskit.tools": (
        "ToolChange",
        "ToolContext",
        "ToolFailure",
        "ToolResource",
        "ToolResult",
    ),
}

_exports.export_lazily(
    globals(),
    deprecated={
        "PromptResponseExitCode": _exports.Deprecated(
            module="artemiskit._exit_codes",
            message=(
                "artemiskit.PromptResponseExitCode is deprecated; import it from "
                "artemiskit.prompt_response, the runner whose exit codes it lists"
            ),
        ),
        **{
            name: _exports.Deprecated(
                module="artemiskit._errors",
                message=f"artemiskit.{name} {_NEVER_RAISED}",
            )
            for name in (
                "BudgetExhaustedError",
                "DeadlineExceededError",
                "PolicyDeniedError",
                "SessionCancelledError",
            )
        },
        **_exports.retired("artemiskit", _MOVED),
    },
)
