"""The pytest plugin (entry point ``pytest11``, name ``artemiskit``): SPEC 18.

``pytest --akit PATH`` collects every ``workflow.yaml`` / ``*.workflow.yaml``
(and ``.yml``) under PATH as a test item named after the workflow. Each item runs
its workflow as a one-workflow suite through `ArtemisKit.run_suite` and passes by
the suite rule of SPEC 13. The failure report lists statuses, reason codes and
requirement ids, never content.

Loading the plugin imports nothing of ArtemisKit: that waits until a workflow
is collected, the ``akit`` fixture is used or ``--akit-tools`` is given.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit_pytest._verdicts import suite_failure_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from _pytest._code.code import TerminalRepr

    from artemiskit import ArtemisKit, Problem, Scorer, Tool, Workflow
    from artemiskit.suites import SuiteResult

__all__ = [
    "WorkflowFailure",
    "WorkflowFile",
    "WorkflowItem",
    "akit",
    "pytest_addoption",
    "pytest_collect_file",
    "pytest_collection_modifyitems",
    "pytest_configure",
]

#: pytest's own markers change how a test runs: a tag never becomes one of them.
_RESERVED_MARKERS = frozenset(
    {"filterwarnings", "parametrize", "skip", "skipif", "usefixtures", "xfail"}
)
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,99}")


def _repeat(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 10_000:
        raise argparse.ArgumentTypeError("must be a whole number from 1 to 10000")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must be a number from 0 to 1")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError("must be a whole number, 0 or more")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``--akit*`` options."""
    group = parser.getgroup("artemiskit", "ArtemisKit workflows as tests")
    group.addoption(
        "--akit",
        action="append",
        default=[],
        metavar="PATH",
        dest="akit_paths",
        help="collect workflow.yaml / *.workflow.yaml under PATH as test items "
        "(repeatable); without other paths on the command line only these run",
    )
    group.addoption(
        "--akit-config",
        metavar="FILE",
        dest="akit_config",
        help="trusted configuration (artemis.config.yaml) for workflows and the "
        "akit fixture; default: offline, scripted provider only",
    )
    group.addoption(
        "--akit-judge-config",
        metavar="FILE",
        dest="akit_judge_config",
        help="judge configuration for judge outcomes (never implicit)",
    )
    group.addoption(
        "--akit-tools",
        action="append",
        default=[],
        metavar="MODULE:ATTR",
        dest="akit_tools",
        help="user-defined tools (trusted host code) that workflows may declare, "
        "like akit's --tools (repeatable)",
    )
    group.addoption(
        "--akit-scorers",
        action="append",
        default=[],
        metavar="MODULE:ATTR",
        dest="akit_scorers",
        help="custom scorers (trusted host code) that scorer outcomes may name, "
        "like akit's --scorers (repeatable)",
    )
    group.addoption(
        "--akit-repeat",
        type=_repeat,
        default=1,
        metavar="N",
        dest="akit_repeat",
        help="runs per workflow (default 1)",
    )
    group.addoption(
        "--akit-min-pass-rate",
        type=_rate,
        default=1.0,
        metavar="R",
        dest="akit_min_pass_rate",
        help="a workflow item fails when its pass rate is below R (default 1.0)",
    )
    group.addoption(
        "--akit-gate",
        choices=("point", "lower-bound"),
        default="point",
        dest="akit_gate",
        help="what --akit-min-pass-rate judges: the pass rate (point, the default) "
        "or its 95%% interval's lower bound (lower-bound)",
    )
    group.addoption(
        "--akit-max-errored",
        type=_count,
        default=0,
        metavar="N",
        dest="akit_max_errored",
        help="errored runs (infrastructure failures, lost runs) a workflow item "
        "tolerates (default 0)",
    )
    group.addoption(
        "--akit-case",
        action="append",
        default=None,
        metavar="ID",
        dest="akit_case",
        help="of workflows with cases (a dataset), collect only this case "
        "(repeatable); an id no collected workflow has is a usage error",
    )
    group.addoption(
        "--akit-target",
        action="append",
        default=None,
        metavar="ENTRY:MODEL",
        dest="akit_target",
        help="run every workflow on this provider entry of --akit-config and "
        "model instead of its own target (repeatable: one item per target, "
        "workflow[case][target])",
    )
    group.addoption(
        "--akit-replay",
        metavar="DIR",
        dest="akit_replay",
        help="answer every model request from the cassettes in DIR, laid out as "
        "`akit workflow run ... --record-cassettes DIR` writes them "
        "(<workflow>[/<case>][/<target>]/<NNN>.cassette.jsonl); tools still "
        "run for real",
    )
    group.addoption(
        "--akit-replay-mode",
        choices=("strict", "lenient"),
        default="strict",
        dest="akit_replay_mode",
        help="with --akit-replay: stop a run at the first request that differs "
        "from the recorded one (strict, the default) or check positions only",
    )
    group.addoption(
        "--akit-output-dir",
        metavar="DIR",
        dest="akit_output_dir",
        help="keep records and suite.json for `akit report` under "
        "DIR/<workflow>/ (DIR must be new or empty)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers; make the ``--akit`` paths part of the collection."""
    config.addinivalue_line(
        "markers", "akit: a workflow collected with --akit (ArtemisKit)"
    )
    replay = config.option.akit_replay
    if replay is not None and not Path(config.invocation_params.dir, replay).is_dir():
        raise pytest.UsageError(f"--akit-replay {replay}: no such folder")
    for option, value in (
        ("--akit-config", config.option.akit_config),
        ("--akit-judge-config", config.option.akit_judge_config),
    ):
        if (
            value is not None
            and not Path(config.invocation_params.dir, value).is_file()
        ):
            raise pytest.UsageError(f"{option} {value}: no such file")
    if config.option.akit_tools:
        from artemiskit import Tool

        config.stash[_TOOLS] = tuple(
            tool
            for spec in config.option.akit_tools
            for tool in _import_objects(
                "--akit-tools", spec, config.invocation_params.dir, Tool
            )
        )
    if config.option.akit_scorers:
        from artemiskit import Scorer

        config.stash[_SCORERS] = tuple(
            scorer
            for spec in config.option.akit_scorers
            for scorer in _import_objects(
                "--akit-scorers", spec, config.invocation_params.dir, Scorer
            )
        )
    if config.option.akit_target:
        config.stash[_TARGETS] = _parse_targets(config.option.akit_target)
    given: list[str] = config.option.akit_paths
    if not given:
        return
    for path in given:
        if not Path(config.invocation_params.dir, path).exists():
            raise pytest.UsageError(f"--akit {path}: no such file or folder")
    output = config.option.akit_output_dir
    if output is not None and not hasattr(config, "workerinput"):
        folder = Path(config.invocation_params.dir, output)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise pytest.UsageError(
                f"--akit-output-dir {output}: exists and is not an empty folder"
            )
    roots = [Path(config.invocation_params.dir, p).resolve() for p in given]
    config.stash[_ROOTS] = roots
    if config.args_source is pytest.Config.ArgsSource.ARGS:
        config.args = [*config.args, *(p for p in given if p not in config.args)]
    else:
        config.args = list(given)


_ROOTS = pytest.StashKey[list[Path]]()
_TARGETS = pytest.StashKey[tuple[str, ...]]()


def _parse_targets(values: list[str]) -> tuple[str, ...]:
    """The ``--akit-target`` ids, each checked as ``ENTRY:MODEL`` and given once.

    Raises:
        pytest.UsageError: A value is not ``ENTRY:MODEL``, or is given twice.
    """
    from artemiskit import WorkflowError
    from artemiskit.targets import target_choices

    try:
        return tuple(choice.id for choice in target_choices(values))
    except WorkflowError as exc:
        message = exc.message.removeprefix("--target ")
        raise pytest.UsageError(f"--akit-target {message}") from None


_TOOLS = pytest.StashKey[tuple["Tool", ...]]()
_SCORERS = pytest.StashKey[tuple["Scorer", ...]]()


def _import_objects(option: str, spec: str, folder: Path, kind: type[Any]) -> Any:
    """The objects ``MODULE:ATTR`` names; the invocation folder is searched first.

    Raises:
        pytest.UsageError: The reference is malformed, cannot be imported, or is
            not a ``kind`` or a sequence of them.
    """
    from artemiskit import ConfigError, import_host_objects

    try:
        return import_host_objects(spec, kind, folder=folder)
    except ConfigError as exc:
        raise pytest.UsageError(f"{option} {exc.message}") from None


def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> WorkflowFile | None:
    """A workflow file under an ``--akit`` path becomes a `WorkflowFile`."""
    roots = parent.config.stash.get(_ROOTS, None)
    if not roots:
        return None
    # Only with --akit: loading the plugin imports nothing of ArtemisKit.
    from artemiskit.suites import is_workflow_file

    resolved = file_path.resolve()
    # A file given to --akit is taken as given; a folder means its workflow files.
    if resolved not in roots and not (
        is_workflow_file(file_path.name)
        and any(root in resolved.parents for root in roots)
    ):
        return None
    workflow_file: WorkflowFile = WorkflowFile.from_parent(parent, path=file_path)
    return workflow_file


class WorkflowFailure(Exception):
    """A workflow item did not pass; the message is metadata only."""


class _CollectionProblem(Exception):
    """A workflow file could not be collected; the message is metadata only."""


def _problem_text(exc: BaseException) -> str:
    """An ArtemisKit error as `akit` prints it: FILE:LINE:COL lines, then the error."""
    from artemiskit import ArtemisError

    if not isinstance(exc, ArtemisError):
        return (
            f"internal error ({type(exc).__name__}); run the workflow with "
            "`akit workflow run` for details"
        )
    problems: tuple[Problem, ...] = getattr(exc, "problems", ())
    lines = []
    for problem in problems:
        where = problem.source or "<input>"
        if problem.line is not None:
            where += f":{problem.line}:{problem.column}"
        lines.append(f"{where}: {problem.path}: {problem.message}")
    lines.append(f"error: {exc.message}")
    return "\n".join(lines)


class WorkflowFile(pytest.File):
    """A workflow file: one item, named after the workflow."""

    def collect(self) -> Iterator[WorkflowItem]:
        """Load and validate the workflow (offline), yield its item.

        A workflow with cases yields one item per case, ``workflow[case]``
        (only the ``--akit-case`` ones when given).

        Raises:
            _CollectionProblem: The workflow is invalid, or a tag names one of
                pytest's own markers.
        """
        import anyio

        from artemiskit import ArtemisError, WorkflowError, load_agent_workflow
        from artemiskit.workflow import read_case_workflows

        tools = self.config.stash.get(_TOOLS, ())
        scorers = self.config.stash.get(_SCORERS, ())
        case_ids: tuple[str | None, ...] = (None,)
        try:
            try:
                workflow: Workflow = anyio.run(
                    functools.partial(
                        load_agent_workflow, self.path, tools=tools, scorers=scorers
                    )
                )
            except WorkflowError as exc:
                if exc.reason != "has_cases":
                    raise
                cases = read_case_workflows(self.path, tools=tools, scorers=scorers)
                wanted = self.config.option.akit_case
                known = self.config.stash.setdefault(_CASES_SEEN, set())
                known.update(cases.case_ids)
                case_ids = tuple(
                    c for c in cases.case_ids if wanted is None or c in wanted
                )
                if not case_ids:
                    return
                chosen = case_ids[0]
                assert chosen is not None  # ids of a dataset
                workflow = cases.case(chosen).workflow
        except ArtemisError as exc:
            text = _problem_text(exc)
            if "must be registered" in text:
                text += (
                    "\nhint: register user-defined tools with --akit-tools MODULE:ATTR"
                )
            if "scorer that is not registered" in text:
                text += (
                    "\nhint: register custom scorers with --akit-scorers MODULE:ATTR"
                )
            raise _CollectionProblem(text) from None
        reserved = sorted(_RESERVED_MARKERS.intersection(workflow.tags))
        if reserved:
            raise _CollectionProblem(
                f"{self.path.name}: tags {', '.join(reserved)}: a tag cannot be "
                "one of pytest's own markers (skip, skipif, xfail, parametrize, "
                "usefixtures, filterwarnings); rename it"
            )
        for tag in workflow.tags:
            self.config.addinivalue_line("markers", f"{tag}: workflow tag")
        given_targets: tuple[str, ...] = self.config.stash.get(_TARGETS, ())
        targets: tuple[str | None, ...] = given_targets or (None,)
        for case_id in case_ids:
            for target in targets:
                name = _printable(workflow.name)
                if case_id is not None:
                    name += f"[{case_id}]"
                if target is not None:
                    name += f"[{_printable(target)}]"
                item: WorkflowItem = WorkflowItem.from_parent(self, name=name)
                item.workflow_name = workflow.name
                item.case_id = case_id
                item.target = target
                item.add_marker("akit")
                for tag in workflow.tags:
                    item.add_marker(tag)
                yield item

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | TerminalRepr:
        """A collection problem as FILE:LINE:COL lines, never a traceback."""
        if isinstance(excinfo.value, _CollectionProblem):
            return str(excinfo.value)
        return _problem_text(excinfo.value)


def _folder_name(name: str) -> str:
    """A workflow's output folder: its name when plain, else a safe form."""
    if _PLAIN_NAME.fullmatch(name) and name not in (".", ".."):
        return name
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-")[:40] or "workflow"
    return f"{safe}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def _folder_names(names: list[str]) -> dict[str, str]:
    """A distinct output folder per distinct name, even on a case-blind disk.

    A plain name can equal another's safe form, and two names can differ only in
    case: a folder already taken (compared without case) gets a number.
    """
    folders: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        if name in folders:
            continue
        folder = _folder_name(name)
        chosen, number = folder, 1
        while chosen.lower() in taken:
            number += 1
            chosen = f"{folder}-{number}"
        taken.add(chosen.lower())
        folders[name] = chosen
    return folders


def _printable(name: str) -> str:
    """A workflow name fit for an item id: control characters escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


_OUTPUT_NAMES = pytest.StashKey[dict[str, int]]()
_OUTPUT_FOLDERS = pytest.StashKey[dict[str, str]]()
#: Every case id of the collected workflows with cases (for ``--akit-case``).
_CASES_SEEN = pytest.StashKey[set[str]]()


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Give each workflow name its output folder; count the names (unique only).

    A workflow with cases is one file of many items: it counts once.

    Raises:
        pytest.UsageError: An ``--akit-case`` id no collected workflow has.
    """
    names: dict[str, int] = {}
    files: set[object] = set()
    for item in items:
        if isinstance(item, WorkflowItem) and item.parent not in files:
            files.add(item.parent)  # a workflow with cases: one file, many items
            names[item.workflow_name] = names.get(item.workflow_name, 0) + 1
    config.stash[_OUTPUT_NAMES] = names
    config.stash[_OUTPUT_FOLDERS] = _folder_names(sorted(names))
    wanted = config.option.akit_case or []
    seen = config.stash.get(_CASES_SEEN, set())
    unknown = [case for case in wanted if case not in seen]
    if unknown:
        raise pytest.UsageError(
            f"--akit-case: no collected workflow has the case "
            f"{', '.join(repr(case) for case in unknown)}"
        )


class WorkflowItem(pytest.Item):
    """One workflow, run ``--akit-repeat`` times as a one-workflow suite."""

    workflow_name: str = ""
    #: The dataset case this item runs (``None`` for a workflow without cases).
    case_id: str | None = None
    #: The ``--akit-target`` it runs on (``None``: the workflow's own).
    target: str | None = None

    def runtest(self) -> None:
        """Run the suite; fail unless its exit code is 0 (SPEC 13).

        Raises:
            WorkflowFailure: A pass rate is below ``--akit-min-pass-rate``, or a
                run's evaluation was unavailable, in doubt or cancelled.
        """
        import anyio

        option = self.config.option
        output = None
        if option.akit_output_dir is not None:
            name = self.workflow_name
            if self.config.stash.get(_OUTPUT_NAMES, {}).get(name, 0) > 1:
                raise WorkflowFailure(
                    f"workflow {self.workflow_name!r}: another collected workflow "
                    "has the same name, so they would share an output folder; "
                    "workflow names must be unique with --akit-output-dir"
                )
            folders = self.config.stash.get(_OUTPUT_FOLDERS, {})
            folder = folders.get(name) or _folder_name(name)
            output = Path(
                self.config.invocation_params.dir, option.akit_output_dir, folder
            )
            if self.case_id is not None:
                output = output / self.case_id
            if self.target is not None:
                output = output / _folder_name(self.target)
        path = self.path

        async def run() -> SuiteResult:
            kit = _kit(self.config)
            return await kit.run_suite(
                paths=[path],
                output_dir=output,
                repeat=option.akit_repeat,
                min_pass_rate=option.akit_min_pass_rate,
                max_errored=option.akit_max_errored,
                gate=option.akit_gate,
                judge=_judge(self.config),
                cases=None if self.case_id is None else [self.case_id],
                targets=None if self.target is None else [self.target],
                replay=_option_path(self.config, option.akit_replay),
                replay_mode=option.akit_replay_mode,
            )

        result = anyio.run(run)
        from artemiskit import ExitCode

        if result.exit_code != ExitCode.OK:
            raise WorkflowFailure(suite_failure_text(result, only=self.workflow_name))

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | TerminalRepr:
        """Statuses and reason codes only: no traceback, no locals, no content."""
        if isinstance(excinfo.value, WorkflowFailure):
            return str(excinfo.value)
        return _problem_text(excinfo.value)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the item comes from: the workflow file, under its name."""
        return self.path, None, f"workflow {self.name}"


def _option_path(config: pytest.Config, value: str | None) -> Path | None:
    return None if value is None else Path(config.invocation_params.dir, value)


def _kit(config: pytest.Config) -> ArtemisKit:
    from artemiskit import ArtemisKit

    return ArtemisKit(
        config=_option_path(config, config.option.akit_config),
        tools=config.stash.get(_TOOLS, ()),
        scorers=config.stash.get(_SCORERS, ()),
    )


def _judge(config: pytest.Config) -> Path | None:
    return _option_path(config, config.option.akit_judge_config)


@pytest.fixture
def akit(pytestconfig: pytest.Config) -> ArtemisKit:
    """An `ArtemisKit` from ``--akit-config``, or offline defaults without it.

    Offline defaults: no provider entries, so only the ``scripted`` provider and
    your own clients or targets work.
    """
    return _kit(pytestconfig)
