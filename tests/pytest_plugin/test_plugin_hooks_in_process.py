"""The plugin's hooks (options, collection, markers, output folders), in-process.

`tests/pytest_plugin/test_plugin.py` checks these as a user meets them, with pytest
in a child process; mutation testing cannot reach a child, so each decision of
``pytest_configure``, ``pytest_collect_file``, ``WorkflowFile.collect``,
``pytest_collection_modifyitems`` and ``WorkflowItem.runtest`` is checked here
again with ``runpytest_inprocess``.
"""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import pytest

from tests.examples._blocks import ROOT
from tests.pytest_plugin._projects import BAD, GOOD, SHORT, add_workflow, leaks

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.timeout(300)


def _text(result: pytest.RunResult) -> str:
    return "\n".join([*result.outlines, *result.errlines])


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """``good`` (tag ``smoke``) always passes, ``bad`` (two tags) always fails."""
    workflows = pytester.path / "workflows"
    add_workflow(workflows / "good", "good", [GOOD], tags=["smoke"])
    add_workflow(workflows / "bad", "bad", [BAD], tags=["slow", "billing-v2"])
    return workflows


def test_tags_are_markers_and_every_item_is_marked_akit(
    pytester: pytest.Pytester, project: Path
) -> None:
    strict = ["--akit", "workflows", "--strict-markers"]
    pytester.runpytest_inprocess(*strict, "-m", "smoke").assert_outcomes(
        passed=1, deselected=1
    )
    pytester.runpytest_inprocess(
        *strict, "-m", "billing-v2 and not smoke"
    ).assert_outcomes(failed=1, deselected=1)
    pytester.runpytest_inprocess(*strict, "-m", "akit").assert_outcomes(
        passed=1, failed=1
    )
    listed = pytester.runpytest_inprocess("--akit", "workflows", "--markers")
    listed.stdout.fnmatch_lines(
        ["@pytest.mark.akit: a workflow collected with --akit (ArtemisKit)"]
    )


def test_items_are_named_after_the_workflow_and_report_where_they_come_from(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_inprocess("--akit", "workflows", "-k", "good", "-v")
    result.assert_outcomes(passed=1, deselected=1)
    result.stdout.fnmatch_lines(["*workflows/good/workflow.yaml::good PASSED*"])
    items, _ = pytester.inline_genitems("--akit", "workflows")
    assert [item.reportinfo()[1:] for item in items] == [
        (None, "workflow bad"),
        (None, "workflow good"),
    ]
    assert [item.reportinfo()[0] for item in items] == [
        project / "bad" / "workflow.yaml",
        project / "good" / "workflow.yaml",
    ]


def test_a_tag_never_becomes_one_of_pytests_own_markers(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "sneaky", [BAD], tags=["xfail", "skip", "ok"])
    result = pytester.runpytest_inprocess("--akit", "wf")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "workflow.yaml: tags skip, xfail: a tag cannot be one of pytest's own "
            "markers (skip, skipif, xfail, parametrize, usefixtures, "
            "filterwarnings); rename it"
        ]
    )


@pytest.mark.parametrize(
    "tag", ["filterwarnings", "parametrize", "skip", "skipif", "usefixtures", "xfail"]
)
def test_each_of_pytests_own_markers_is_refused_as_a_tag(
    pytester: pytest.Pytester, tag: str
) -> None:
    add_workflow(pytester.path / "wf", "sneaky", [GOOD], tags=[tag])
    result = pytester.runpytest_inprocess("--akit", "wf")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([f"workflow.yaml: tags {tag}: a tag cannot be*"])


def test_output_dir_keeps_each_workflows_records_and_x_stops_early(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_inprocess(
        "--akit", "workflows", "--akit-repeat", "2", "--akit-output-dir", "out"
    )
    result.assert_outcomes(passed=1, failed=1)
    out = pytester.path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["bad", "good"]
    for name, passed in (("good", 2), ("bad", 0)):
        summary = json.loads((out / name / "suite.json").read_text("utf-8"))
        [workflow] = summary["workflows"]
        assert (workflow["name"], workflow["passed"]) == (name, passed)
        records = sorted(p.name for p in (out / name / "runs" / name).iterdir())
        assert records == ["001.record.json", "002.record.json"]
    add_workflow(pytester.path / "wf" / "a", "a-first", [BAD])
    add_workflow(pytester.path / "wf" / "b", "b-second", [BAD])
    stopped = pytester.runpytest_inprocess(
        "--akit", "wf", "-x", "--akit-output-dir", "early"
    )
    stopped.assert_outcomes(failed=1)
    assert [p.name for p in (pytester.path / "early").iterdir()] == ["a-first"]


def test_output_dir_may_exist_empty_but_not_hold_anything(
    pytester: pytest.Pytester, project: Path
) -> None:
    (pytester.path / "empty").mkdir()
    kept = pytester.runpytest_inprocess(
        "--akit", "workflows/good", "--akit-output-dir", "empty"
    )
    kept.assert_outcomes(passed=1)
    assert [p.name for p in (pytester.path / "empty").iterdir()] == ["good"]
    (pytester.path / "file").write_text("x", "utf-8")
    for taken in ("empty", "file"):
        result = pytester.runpytest_inprocess(
            "--akit", "workflows", "--akit-output-dir", taken
        )
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines(
            [f"*--akit-output-dir {taken}: exists and is not an empty folder*"]
        )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--akit", "nowhere"], "--akit nowhere: no such file or folder"),
        (
            ["--akit", "workflows", "--akit-config", "gone.yaml"],
            "--akit-config gone.yaml: no such file",
        ),
        (
            ["--akit", "workflows", "--akit-judge-config", "gone.yaml"],
            "--akit-judge-config gone.yaml: no such file",
        ),
        (
            ["--akit", "workflows", "--akit-judge-config", "workflows"],
            "--akit-judge-config workflows: no such file",
        ),
        (
            ["--akit", "workflows", "--akit-replay", "nowhere"],
            "--akit-replay nowhere: no such folder",
        ),
        (
            ["--akit", "workflows", "--akit-target", "scripted"],
            "--akit-target 'scripted': expected ENTRY:MODEL, *",
        ),
        (
            ["--akit", "workflows", "--akit-tools", "tools_module"],
            "--akit-tools tools_module: expected MODULE:ATTR, e.g. *",
        ),
        (
            ["--akit", "workflows", "--akit-scorers", "scorers_module"],
            "--akit-scorers scorers_module: expected MODULE:ATTR, e.g. *",
        ),
    ],
)
def test_missing_paths_and_bad_references_are_usage_errors(
    pytester: pytest.Pytester, project: Path, options: list[str], message: str
) -> None:
    result = pytester.runpytest_inprocess(*options)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert "Traceback" not in _text(result)


def test_plain_tests_run_beside_the_workflows_only_when_named(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    both = pytester.runpytest_inprocess("test_plain.py", "--akit", "workflows")
    both.assert_outcomes(passed=2, failed=1)
    twice = pytester.runpytest_inprocess(
        "test_plain.py", "workflows", "--akit", "workflows"
    )
    twice.assert_outcomes(passed=2, failed=1)
    only_workflows = pytester.runpytest_inprocess("--akit", "workflows")
    only_workflows.assert_outcomes(passed=1, failed=1)
    without = pytester.runpytest_inprocess()
    without.assert_outcomes(passed=1)


def test_a_file_given_to_akit_is_taken_whatever_its_name(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "odd", [GOOD], file_name="odd.yaml")
    add_workflow(pytester.path / "wf", "usual", [GOOD])
    add_workflow(
        pytester.path / "wf" / "sub", "named", [GOOD], file_name="n.workflow.yml"
    )
    add_workflow(pytester.path / "other", "elsewhere", [GOOD])
    one = pytester.runpytest_inprocess("--akit", "wf/odd.yaml", "-v")
    one.assert_outcomes(passed=1)
    one.stdout.fnmatch_lines(["*wf/odd.yaml::odd PASSED*"])
    folder = pytester.runpytest_inprocess("--akit", "wf", "-v")
    folder.assert_outcomes(passed=2)
    folder.stdout.fnmatch_lines(["*wf/sub/n.workflow.yml::named PASSED*"])


def test_an_invalid_workflow_is_a_located_collection_error(
    pytester: pytest.Pytester,
) -> None:
    path = add_workflow(pytester.path / "wf", "broken", [GOOD], tags=["ok", "not ok"])
    result = pytester.runpytest_inprocess("--akit", "wf", "-l", "--tb=long")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    text = _text(result)
    assert f"{path}:4:14: $.tags[1]: must start with a letter" in text
    assert "error: " in text
    assert "Traceback" not in text
    assert not leaks(text)


def test_a_problem_found_at_run_time_fails_the_item_with_its_location(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "scriptless", [GOOD])
    script = pytester.path / "wf" / "scriptless.script.yaml"
    script.write_text("version: 1\nresponses: oops\n", "utf-8")
    result = pytester.runpytest_inprocess("--akit", "wf", "--tb=long", "-l")
    result.assert_outcomes(failed=1)
    text = _text(result)
    assert f"{script}:2:" in text
    assert "\nerror: " in text
    assert "Traceback" not in text
    assert not leaks(text)


def test_a_shared_name_cannot_share_an_output_folder(pytester: pytest.Pytester) -> None:
    add_workflow(pytester.path / "wf" / "one", "twin", [GOOD])
    add_workflow(pytester.path / "wf" / "two", "twin", [GOOD])
    add_workflow(pytester.path / "wf" / "three", "single", [GOOD])
    apart = pytester.runpytest_inprocess("--akit", "wf")
    apart.assert_outcomes(passed=3)
    kept = pytester.runpytest_inprocess("--akit", "wf", "--akit-output-dir", "out")
    kept.assert_outcomes(passed=1, failed=2)
    kept.stdout.fnmatch_lines(
        [
            "workflow 'twin': another collected workflow has the same name, so they "
            "would share an output folder; workflow names must be unique with "
            "--akit-output-dir"
        ]
    )
    assert [p.name for p in (pytester.path / "out").iterdir()] == ["single"]


def test_names_case_blind_equal_get_distinct_output_folders(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf" / "one", "Twin", [GOOD])
    add_workflow(pytester.path / "wf" / "two", "twin", [GOOD])
    kept = pytester.runpytest_inprocess("--akit", "wf", "--akit-output-dir", "out")
    kept.assert_outcomes(passed=2)
    assert sorted(p.name for p in (pytester.path / "out").iterdir()) == [
        "Twin",
        "twin-2",
    ]
    assert (pytester.path / "out" / "twin-2" / "runs" / "twin").is_dir()


def test_a_name_with_control_characters_is_escaped_in_the_item_id(
    pytester: pytest.Pytester,
) -> None:
    path = add_workflow(pytester.path / "wf", "multi", [BAD])
    path.write_text(
        path.read_text("utf-8").replace("name: multi", 'name: "multi\\nline"'), "utf-8"
    )
    result = pytester.runpytest_inprocess(
        "--akit", "wf", "-v", "--akit-output-dir", "out"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*wf/workflow.yaml::multi\\nline FAILED*",
            "workflow 'multi\\nline': pass rate 0% (0/1), min pass rate 1, exit code 8",
        ]
    )
    [folder] = (pytester.path / "out").iterdir()
    assert folder.name.startswith("multi-line-")


def test_akit_target_makes_an_item_per_target_in_its_own_folder(
    pytester: pytest.Pytester,
) -> None:
    folder = pytester.path / "wf"
    add_workflow(folder, "answer", [GOOD])
    shutil.copy(folder / "answer.script.yaml", folder / "strong.script.yaml")
    result = pytester.runpytest_inprocess(
        "--akit", "wf", "--akit-target", "scripted:answer",
        "--akit-target", "scripted:strong", "-v", "--akit-output-dir", "out",
    )  # fmt: skip
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*::answer[[]scripted:answer[]] PASSED*",
            "*::answer[[]scripted:strong[]] PASSED*",
        ]
    )
    records = sorted((pytester.path / "out").rglob("*.record.json"))
    parents = {r.relative_to(pytester.path / "out").parts[:2] for r in records}
    assert len(records) == 2
    assert {p[0] for p in parents} == {"answer"}
    assert len({p[1] for p in parents}) == 2
    ids = {json.loads(r.read_text("utf-8"))["target"]["id"] for r in records}
    assert ids == {"scripted:answer", "scripted:strong"}
    twice = pytester.runpytest_inprocess(
        "--akit", "wf", "--akit-target", "scripted:answer",
        "--akit-target", "scripted:answer",
    )  # fmt: skip
    assert twice.ret == pytest.ExitCode.USAGE_ERROR
    twice.stderr.fnmatch_lines(["ERROR: --akit-target *scripted:answer*"])


@pytest.fixture
def triage(pytester: pytest.Pytester) -> None:
    """The datasets example (20 tickets, T-1007 routed wrong), as a workflow file."""
    folder = pytester.path / "workflows" / "triage"
    shutil.copytree(ROOT / "examples" / "datasets", folder)
    (folder / "triage.workflow.yaml").rename(folder / "workflow.yaml")
    (folder / "run.py").unlink()


def test_each_case_is_an_item_and_akit_case_keeps_only_those(
    pytester: pytest.Pytester, triage: None
) -> None:
    every = pytester.runpytest_inprocess("--akit", "workflows", "-v")
    every.assert_outcomes(passed=19, failed=1)
    every.stdout.fnmatch_lines(
        [
            "*workflow.yaml::ticket-triage[[]T-1001[]] PASSED*",
            "*workflow.yaml::ticket-triage[[]T-1007[]] FAILED*",
        ]
    )
    some = pytester.runpytest_inprocess(
        "--akit", "workflows", "--akit-case", "T-1003", "--akit-case", "T-1007",
        "--akit-output-dir", "out",
    )  # fmt: skip
    some.assert_outcomes(passed=1, failed=1)
    assert sorted(
        p.name for p in (pytester.path / "out" / "ticket-triage").iterdir()
    ) == [
        "T-1003",
        "T-1007",
    ]
    unknown = pytester.runpytest_inprocess(
        "--akit", "workflows", "--akit-case", "T-1003", "--akit-case", "T-9999",
        "--akit-case", "T-0",
    )  # fmt: skip
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    unknown.stderr.fnmatch_lines(
        ["ERROR: --akit-case: no collected workflow has the case 'T-9999', 'T-0'"]
    )


def test_a_judge_configuration_reaches_judge_outcomes(
    pytester: pytest.Pytester,
) -> None:
    judged = "  - {id: tone, judge: {rubric: 'Neutral.', threshold: 0.5}}"
    add_workflow(pytester.path / "wf", "judged", [GOOD], extra=judged)
    (pytester.path / "judge.yaml").write_text(
        "provider: scripted\nmodel: judge\n", "utf-8"
    )
    (pytester.path / "judge.script.yaml").write_text(
        "version: 1\nresponses:\n  - {score: 0.9, usage: {input_tokens: 1, "
        "output_tokens: 1}}\n",
        "utf-8",
    )
    without = pytester.runpytest_inprocess("--akit", "wf")
    without.assert_outcomes(failed=1)
    without.stdout.fnmatch_lines(
        ["*requirement tone: unavailable (judge_not_configured)"]
    )
    judged_run = pytester.runpytest_inprocess(
        "--akit", "wf", "--akit-judge-config", "judge.yaml"
    )
    judged_run.assert_outcomes(passed=1)


def test_the_configuration_reaches_items_and_the_fixture(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "replayed", [GOOD])
    scripts = pytester.path / "wf" / "scripts"
    scripts.mkdir()
    (pytester.path / "wf" / "replayed.script.yaml").rename(
        scripts / "replayed.script.yaml"
    )
    workflow = pytester.path / "wf" / "workflow.yaml"
    workflow.write_text(
        workflow.read_text("utf-8").replace("provider: scripted", "provider: replay"),
        "utf-8",
    )
    (pytester.path / "artemis.config.yaml").write_text(
        "providers:\n  replay:\n    type: scripted\n    scripts_dir: scripts\n",
        "utf-8",
    )
    pytester.makepyfile(
        test_fixture="""
        import anyio

        from artemiskit_pytest import assert_passed


        def test_fixture(akit):
            run = lambda: akit.run_workflow(workflow="wf/workflow.yaml")
            assert_passed(anyio.run(run))
        """
    )
    configured = pytester.runpytest_inprocess(
        "test_fixture.py", "--akit", "wf", "--akit-config", "artemis.config.yaml"
    )
    configured.assert_outcomes(passed=2)
    offline = pytester.runpytest_inprocess("--akit", "wf")
    offline.assert_outcomes(failed=1)


@pytest.fixture
def shop(pytester: pytest.Pytester) -> Path:
    """examples/custom_tool as an importable package ``shop`` (user-defined tools)."""
    folder = pytester.path / "shop"
    shutil.copytree(ROOT / "examples" / "custom_tool", folder)
    return folder


def test_user_defined_tools_come_from_akit_tools(
    pytester: pytest.Pytester, shop: Path
) -> None:
    refused = pytester.runpytest_inprocess("--akit", "shop")
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    refused.stdout.fnmatch_lines(
        ["hint: register user-defined tools with --akit-tools MODULE:ATTR"]
    )
    assert "--akit-scorers" not in _text(refused)
    result = pytester.runpytest_inprocess(
        "--akit", "shop", "--akit-tools", "shop.order_tools:TOOLS", "-v"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*shop/workflow.yaml::custom-tool PASSED*"])


def test_custom_scorers_come_from_akit_scorers(pytester: pytest.Pytester) -> None:
    shutil.copytree(ROOT / "examples" / "support_agent", pytester.path / "support")
    judge = ["--akit-judge-config", "support/judge.yaml"]
    refused = pytester.runpytest_inprocess("--akit", "support/workflow.yaml", *judge)
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    refused.stdout.fnmatch_lines(
        ["hint: register custom scorers with --akit-scorers MODULE:ATTR"]
    )
    assert "--akit-tools" not in _text(refused)
    scorers = ["--akit-scorers", "support.support_scorers:SCORERS"]
    result = pytester.runpytest_inprocess(
        "--akit", "support/workflow.yaml", *judge, *scorers
    )
    result.assert_outcomes(passed=1)


def test_the_option_defaults_run_each_workflow_once_strictly(
    pytester: pytest.Pytester,
) -> None:
    config = pytester.parseconfig()
    option = config.option
    assert (option.akit_paths, option.akit_tools, option.akit_scorers) == ([], [], [])
    assert (option.akit_repeat, option.akit_min_pass_rate) == (1, 1.0)
    assert (option.akit_gate, option.akit_max_errored) == ("point", 0)
    assert (option.akit_case, option.akit_target, option.akit_replay) == (
        None,
        None,
        None,
    )
    assert (option.akit_replay_mode, option.akit_output_dir) == ("strict", None)
    assert (option.akit_config, option.akit_judge_config) == (None, None)
    add_workflow(pytester.path / "wf", "shaky", [GOOD, SHORT])
    once = pytester.runpytest_inprocess("--akit", "wf")
    once.assert_outcomes(passed=1)
    twice = pytester.runpytest_inprocess("--akit", "wf", "--akit-repeat", "2")
    twice.assert_outcomes(failed=1)


#: ``pytest --help``'s ArtemisKit group, whitespace collapsed (SPEC 18 options).
HELP = (
    "ArtemisKit workflows as tests: "
    "--akit=PATH collect workflow.yaml / *.workflow.yaml under PATH as test items "
    "(repeatable); without other paths on the command line only these run "
    "--akit-config=FILE trusted configuration (artemis.config.yaml) for workflows "
    "and the akit fixture; default: offline, scripted provider only "
    "--akit-judge-config=FILE judge configuration for judge outcomes (never "
    "implicit) "
    "--akit-tools=MODULE:ATTR user-defined tools (trusted host code) that "
    "workflows may declare, like akit's --tools (repeatable) "
    "--akit-scorers=MODULE:ATTR custom scorers (trusted host code) that scorer "
    "outcomes may name, like akit's --scorers (repeatable) "
    "--akit-repeat=N runs per workflow (default 1) "
    "--akit-min-pass-rate=R a workflow item fails when its pass rate is below R "
    "(default 1.0) "
    "--akit-gate={point,lower-bound} what --akit-min-pass-rate judges: the pass "
    "rate (point, the default) or its 95% interval's lower bound (lower-bound) "
    "--akit-max-errored=N errored runs (infrastructure failures, lost runs) a "
    "workflow item tolerates (default 0) "
    "--akit-case=ID of workflows with cases (a dataset), collect only this case "
    "(repeatable); an id no collected workflow has is a usage error "
    "--akit-target=ENTRY:MODEL run every workflow on this provider entry of "
    "--akit-config and model instead of its own target (repeatable: one item per "
    "target, workflow[case][target]) "
    "--akit-replay=DIR answer every model request from the cassettes in DIR, laid "
    "out as `akit workflow run ... --record-cassettes DIR` writes them "
    "(<workflow>[/<case>][/<target>]/<NNN>.cassette.jsonl); tools still run for "
    "real "
    "--akit-replay-mode={strict,lenient} with --akit-replay: stop a run at the "
    "first request that differs from the recorded one (strict, the default) or "
    "check positions only "
    "--akit-output-dir=DIR keep records and suite.json for `akit report` under "
    "DIR/<workflow>/ (DIR must be new or empty)"
)


def test_help_lists_every_option_with_its_value_and_default(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # one line per option: no hyphen breaks
    result = pytester.runpytest_inprocess("--help")
    text = "\n".join(result.outlines)
    group = text.split("ArtemisKit workflows as tests:", 1)[1].split("\n\n", 1)[0]
    assert " ".join(f"ArtemisKit workflows as tests: {group}".split()) == HELP


SCORER_MODULE = """
from artemiskit import Score, Scorer


async def wrote_a_queue(evidence, params):
    return Score(status="passed", reason="routed")


SCORERS = [
    Scorer(
        name="wrote_a_queue",
        version="1",
        description="Always passes.",
        params_schema={"type": "object", "additionalProperties": False},
        handler=wrote_a_queue,
        timeout_ms=2000,
    )
]
"""


def test_a_workflow_with_cases_gets_the_custom_scorers_too(
    pytester: pytest.Pytester, triage: None
) -> None:
    workflow = pytester.path / "workflows" / "triage" / "workflow.yaml"
    workflow.write_text(
        workflow.read_text("utf-8").replace(
            "outcomes:\n", "outcomes:\n  - id: routed\n    scorer: wrote_a_queue\n", 1
        ),
        "utf-8",
    )
    pytester.makepyfile(triage_scorers=SCORER_MODULE)
    refused = pytester.runpytest_inprocess("--akit", "workflows")
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    refused.stdout.fnmatch_lines(
        ["hint: register custom scorers with --akit-scorers MODULE:ATTR"]
    )
    result = pytester.runpytest_inprocess(
        "--akit", "workflows", "--akit-scorers", "triage_scorers:SCORERS",
        "--akit-case", "T-1001", "--akit-case", "T-1007",
    )  # fmt: skip
    result.assert_outcomes(passed=1, failed=1)
