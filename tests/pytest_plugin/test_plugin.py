"""``pytest --akit PATH``: workflows as test items, run by pytest in a subprocess.

Each test generates a project (pytester) and runs pytest on it in a real child
process with the installed ``pytest11`` entry point, as a user would.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from artemiskit.suites import load_suite_record
from tests.examples._blocks import ROOT
from tests.pytest_plugin._projects import BAD, GOOD, SHORT, add_workflow, leaks

pytestmark = pytest.mark.timeout(300)


def output(result: pytest.RunResult) -> str:
    return "\n".join([*result.outlines, *result.errlines])


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """Two workflows: ``good`` always passes, ``bad`` always fails."""
    workflows = pytester.path / "workflows"
    add_workflow(workflows / "good", "good", [GOOD], tags=["smoke"])
    add_workflow(workflows / "bad", "bad", [BAD], tags=["slow", "billing-v2"])
    return workflows


def test_workflows_are_items_named_after_the_workflow(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_subprocess("--akit", "workflows", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*workflows/bad/workflow.yaml::bad FAILED*",
            "*workflows/good/workflow.yaml::good PASSED*",
        ]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_the_failure_report_is_statuses_and_reasons_only(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_subprocess("--akit", "workflows/bad")
    result.assert_outcomes(failed=1)
    text = output(result)
    report = text.split(" workflow bad _", 1)[1].split("\n", 1)[1].split("=====")[0]
    lines = [line for line in report.strip().splitlines() if line]
    assert lines == [
        "why: answer-is-42 (missing_content) × 1",
        "workflow 'bad': pass rate 0% (0/1), min pass rate 1, exit code 8",
        "  run 1: failed, why: answer-is-42 (missing_content); execution completed "
        "(all_turns_completed), verification failed, exit code 8",
        "    requirement answer-is-42: failed (missing_content)",
    ]
    assert "Traceback" not in text
    assert not leaks(text)


def test_a_pass_rate_threshold_decides_a_repeated_workflow(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "flaky", [GOOD, BAD, GOOD])
    strict = pytester.runpytest_subprocess("--akit", "wf", "--akit-repeat", "3")
    strict.assert_outcomes(failed=1)
    strict.stdout.fnmatch_lines(
        [
            "why: answer-is-42 (missing_content) × 1",
            "workflow 'flaky': pass rate 67% (2/3), min pass rate 1, exit code 8",
            "  run 2: failed, why: answer-is-42 (missing_content); execution "
            "completed (all_turns_completed), verification failed, exit code 8",
        ]
    )
    lenient = pytester.runpytest_subprocess(
        "--akit", "wf", "--akit-repeat", "3", "--akit-min-pass-rate", "0.6"
    )
    lenient.assert_outcomes(passed=1)
    once = pytester.runpytest_subprocess("--akit", "wf")
    once.assert_outcomes(passed=1)


def test_the_lower_bound_gate_asks_for_enough_runs(pytester: pytest.Pytester) -> None:
    add_workflow(pytester.path / "wf", "steady", [GOOD])
    point = pytester.runpytest_subprocess(
        "--akit", "wf", "--akit-repeat", "3", "--akit-min-pass-rate", "0.9"
    )
    point.assert_outcomes(passed=1)
    bound = pytester.runpytest_subprocess(
        "--akit",
        "wf",
        "--akit-repeat",
        "3",
        "--akit-min-pass-rate",
        "0.9",
        "--akit-gate",
        "lower-bound",
    )
    bound.assert_outcomes(failed=1)
    bound.stdout.fnmatch_lines(
        [
            "workflow 'steady': pass rate 100% (3/3), min pass rate 0.9 for the "
            "interval's lower bound (44%), exit code 8",
        ]
    )


def test_max_errored_tolerates_errored_runs(pytester: pytest.Pytester) -> None:
    add_workflow(pytester.path / "wf", "shaky", [GOOD, SHORT])
    strict = pytester.runpytest_subprocess("--akit", "wf", "--akit-repeat", "2")
    strict.assert_outcomes(failed=1)
    strict.stdout.fnmatch_lines(
        [
            "why: runtime_failure (script_exhausted) × 1",
            "workflow 'shaky': pass rate 100% (1/1), 1 errored, 0 unavailable "
            "(range 50%–100%), min pass rate 1, exit code 7",
            "  run 2: errored, why: runtime_failure (script_exhausted); execution "
            "runtime_failure (script_exhausted), verification unavailable, exit code 7",
        ]
    )
    assert not leaks(output(strict))
    tolerant = pytester.runpytest_subprocess(
        "--akit", "wf", "--akit-repeat", "2", "--akit-max-errored", "1"
    )
    tolerant.assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("option", "value", "rule"),
    [
        ("--akit-repeat", "0", "must be a whole number from 1 to 10000"),
        ("--akit-repeat", "many", "must be a whole number from 1 to 10000"),
        ("--akit-min-pass-rate", "1.5", "must be a number from 0 to 1"),
        ("--akit-min-pass-rate", "nan", "must be a number from 0 to 1"),
        ("--akit-max-errored", "-1", "must be a whole number, 0 or more"),
        ("--akit-max-errored", "some", "must be a whole number, 0 or more"),
    ],
)
def test_bad_options_are_usage_errors(
    pytester: pytest.Pytester, project: Path, option: str, value: str, rule: str
) -> None:
    result = pytester.runpytest_subprocess("--akit", "workflows", option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"argument {option}: {rule}" in output(result)
    assert "Traceback" not in output(result)


def test_a_missing_path_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--akit", "nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--akit nowhere: no such file or folder*"])


def test_k_selects_workflows_by_name(pytester: pytest.Pytester, project: Path) -> None:
    result = pytester.runpytest_subprocess("--akit", "workflows", "-k", "good")
    result.assert_outcomes(passed=1, deselected=1)


def test_m_selects_workflows_by_tag(pytester: pytest.Pytester, project: Path) -> None:
    smoke = pytester.runpytest_subprocess(
        "--akit", "workflows", "-m", "smoke", "--strict-markers"
    )
    smoke.assert_outcomes(passed=1, deselected=1)
    tagged = pytester.runpytest_subprocess(
        "--akit", "workflows", "-m", "billing-v2 and not smoke", "--strict-markers"
    )
    tagged.assert_outcomes(failed=1, deselected=1)
    every = pytester.runpytest_subprocess(
        "--akit", "workflows", "-m", "akit", "--strict-markers"
    )
    every.assert_outcomes(passed=1, failed=1)


def test_a_tag_never_becomes_one_of_pytests_own_markers(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "sneaky", [BAD], tags=["skip"])
    result = pytester.runpytest_subprocess("--akit", "wf")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*tags skip: a tag cannot be one of pytest's own*"])


def test_x_stops_after_the_first_failing_workflow(pytester: pytest.Pytester) -> None:
    add_workflow(pytester.path / "wf" / "a", "a-first", [BAD])
    add_workflow(pytester.path / "wf" / "b", "b-second", [BAD])
    result = pytester.runpytest_subprocess(
        "--akit", "wf", "-x", "--akit-output-dir", "out"
    )
    result.assert_outcomes(failed=1)
    assert sorted(p.name for p in (pytester.path / "out").iterdir()) == ["a-first"]


def test_junit_file_holds_the_failure_text_and_no_content(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--junitxml", "junit.xml", "-o", "junit_logging=all"
    )
    result.assert_outcomes(passed=1, failed=1)
    text = (pytester.path / "junit.xml").read_text("utf-8")
    assert not leaks(text)
    cases = {
        case.get("name"): case for case in ElementTree.fromstring(text).iter("testcase")
    }
    assert set(cases) == {"good", "bad"}
    assert cases["good"].find("failure") is None
    failure = cases["bad"].find("failure")
    assert failure is not None
    assert "requirement answer-is-42: failed (missing_content)" in (failure.text or "")
    assert "execution completed (all_turns_completed)" in failure.get("message", "")


@pytest.mark.parametrize(
    "flags",
    [
        ["-vv", "--tb=long", "-l", "-rA"],
        ["-vv", "--tb=native", "--showlocals", "-rA", "-s"],
        ["--tb=short", "-l", "--full-trace"],
    ],
    ids=["long-showlocals", "native-nocapture", "full-trace"],
)
def test_sentinels_never_reach_the_output(
    pytester: pytest.Pytester, project: Path, flags: list[str]
) -> None:
    pytester.makepyfile(
        test_by_hand="""
        import anyio
        import pytest

        from artemiskit_pytest import assert_passed


        @pytest.mark.parametrize("which", ["good", "bad"])
        def test_by_hand(akit, which):
            workflow = f"workflows/{which}/workflow.yaml"
            result = anyio.run(lambda: akit.run_workflow(workflow=workflow))
            transcript = result.transcript
            assert_passed(result)
        """
    )
    result = pytester.runpytest_subprocess(
        "test_by_hand.py",
        "--akit",
        "workflows",
        "--junitxml",
        "junit.xml",
        *flags,
    )
    result.assert_outcomes(passed=2, failed=2)
    text = output(result)
    assert "requirement answer-is-42: failed (missing_content)" in text
    assert not leaks(text), [line for line in text.splitlines() if leaks(line)]
    assert not leaks((pytester.path / "junit.xml").read_text("utf-8"))


def test_output_dir_keeps_records_and_suite_json(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-repeat", "2", "--akit-output-dir", "out"
    )
    result.assert_outcomes(passed=1, failed=1)
    out = pytester.path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["bad", "good"]
    for name, passed in (("good", 2), ("bad", 0)):
        summary = json.loads((out / name / "suite.json").read_text("utf-8"))
        load_suite_record(out / name / "suite.json")
        [workflow] = summary["workflows"]
        assert (workflow["name"], workflow["passed"]) == (name, passed)
        records = sorted(p.name for p in (out / name / "runs" / name).iterdir())
        assert records == ["001.record.json", "002.record.json"]
    for path in out.rglob("*"):
        if path.is_file():
            assert not leaks(path.read_text("utf-8")), path


def test_output_dir_must_be_new_or_empty(
    pytester: pytest.Pytester, project: Path
) -> None:
    (pytester.path / "out").mkdir()
    (pytester.path / "out" / "old.txt").write_text("x", "utf-8")
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-output-dir", "out"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--akit-output-dir out: exists and is not an empty*"])


def test_xdist_runs_items_independently(
    pytester: pytest.Pytester, project: Path
) -> None:
    add_workflow(project / "more", "also-good", [GOOD], file_name="x.workflow.yaml")
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "-n", "2", "--akit-output-dir", "out", "-l", "--tb=long"
    )
    result.assert_outcomes(passed=2, failed=1)
    assert sorted(p.name for p in (pytester.path / "out").iterdir()) == [
        "also-good",
        "bad",
        "good",
    ]
    text = output(result)
    assert "requirement answer-is-42: failed (missing_content)" in text
    assert not leaks(text)


def test_other_test_paths_run_beside_the_workflows(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    both = pytester.runpytest_subprocess("test_plain.py", "--akit", "workflows")
    both.assert_outcomes(passed=2, failed=1)
    only_workflows = pytester.runpytest_subprocess("--akit", "workflows")
    only_workflows.assert_outcomes(passed=1, failed=1)
    without = pytester.runpytest_subprocess()
    without.assert_outcomes(passed=1)


def test_an_invalid_workflow_is_a_located_collection_error(
    pytester: pytest.Pytester,
) -> None:
    path = add_workflow(pytester.path / "wf", "broken", [GOOD], tags=["ok", "not ok"])
    result = pytester.runpytest_subprocess("--akit", "wf", "-l", "--tb=long")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    text = output(result)
    assert f"{path}:4:14: $.tags[1]: must start with a letter" in text
    assert "Traceback" not in text
    assert not leaks(text)


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
    without = pytester.runpytest_subprocess("--akit", "wf")
    without.assert_outcomes(failed=1)
    without.stdout.fnmatch_lines(
        ["*requirement tone: unavailable (judge_not_configured)"]
    )
    judged_run = pytester.runpytest_subprocess(
        "--akit", "wf", "--akit-judge-config", "judge.yaml"
    )
    judged_run.assert_outcomes(passed=1)


def test_the_fixture_uses_the_trusted_configuration(pytester: pytest.Pytester) -> None:
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
    configured = pytester.runpytest_subprocess(
        "test_fixture.py", "--akit", "wf", "--akit-config", "artemis.config.yaml"
    )
    configured.assert_outcomes(passed=2)
    offline = pytester.runpytest_subprocess("test_fixture.py")
    offline.assert_outcomes(failed=1)
    offline.stdout.fnmatch_lines(["*ConfigError*"])


def test_the_plugin_loads_without_importing_artemiskit(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_light="""
        import sys


        def test_nothing_loaded_at_start_up(pytestconfig):
            assert pytestconfig.pluginmanager.hasplugin("artemiskit")
            loaded = [m for m in sys.modules if m.split(".")[0] == "artemiskit"]
            assert loaded == []


        def test_the_fixture_loads_the_sdk(akit):
            assert type(akit).__name__ == "ArtemisKit"
            assert "artemiskit.engine" in sys.modules
        """
    )
    result = pytester.runpytest_subprocess("test_light.py", "-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_plugin_can_be_disabled(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("-p", "no:artemiskit", "--akit", "x")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unrecognized arguments: --akit" in output(result)


def test_a_file_given_to_akit_is_taken_whatever_its_name(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "odd", [GOOD], file_name="odd.yaml")
    add_workflow(pytester.path / "wf", "usual", [GOOD])
    one = pytester.runpytest_subprocess("--akit", "wf/odd.yaml", "-v")
    one.assert_outcomes(passed=1)
    one.stdout.fnmatch_lines(["*wf/odd.yaml::odd PASSED*"])
    folder = pytester.runpytest_subprocess("--akit", "wf")
    folder.assert_outcomes(passed=1)


@pytest.mark.parametrize("option", ["--akit-config", "--akit-judge-config"])
def test_a_missing_configuration_is_a_usage_error(
    pytester: pytest.Pytester, project: Path, option: str
) -> None:
    result = pytester.runpytest_subprocess("--akit", "workflows", option, "gone.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{option} gone.yaml: no such file*"])


def test_a_problem_found_at_run_time_fails_the_item_with_its_location(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf", "scriptless", [GOOD])
    script = pytester.path / "wf" / "scriptless.script.yaml"
    script.write_text("version: 1\nresponses: oops\n", "utf-8")
    result = pytester.runpytest_subprocess("--akit", "wf", "--tb=long", "-l")
    result.assert_outcomes(failed=1)
    text = output(result)
    assert f"{script}:2:" in text
    assert "error: " in text
    assert "Traceback" not in text
    assert not leaks(text)


def test_a_shared_name_cannot_share_an_output_folder(pytester: pytest.Pytester) -> None:
    add_workflow(pytester.path / "wf" / "one", "twin", [GOOD])
    add_workflow(pytester.path / "wf" / "two", "twin", [GOOD])
    apart = pytester.runpytest_subprocess("--akit", "wf")
    apart.assert_outcomes(passed=2)
    kept = pytester.runpytest_subprocess("--akit", "wf", "--akit-output-dir", "out")
    kept.assert_outcomes(failed=2)
    kept.stdout.fnmatch_lines(["*workflow 'twin': another collected workflow has*"])
    assert not (pytester.path / "out").exists()


def test_a_name_with_control_characters_is_escaped_in_the_item_id(
    pytester: pytest.Pytester,
) -> None:
    path = add_workflow(pytester.path / "wf", "multi", [BAD])
    path.write_text(
        path.read_text("utf-8").replace("name: multi", 'name: "multi\\nline"'), "utf-8"
    )
    result = pytester.runpytest_subprocess(
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


@pytest.fixture
def shop(pytester: pytest.Pytester) -> Path:
    """examples/custom_tool as an importable package ``shop`` (user-defined tools)."""
    folder = pytester.path / "shop"
    shutil.copytree(ROOT / "examples" / "custom_tool", folder)
    return folder


def test_user_defined_tools_come_from_akit_tools(
    pytester: pytest.Pytester, shop: Path
) -> None:
    refused = pytester.runpytest_subprocess("--akit", "shop")
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    refused.stdout.fnmatch_lines(
        ["hint: register user-defined tools with --akit-tools MODULE:ATTR"]
    )
    pytester.makepyfile(
        test_fixture_tools="""
        import anyio

        from artemiskit_pytest import assert_passed


        def test_fixture_has_the_tools(akit):
            run = lambda: akit.run_workflow(workflow="shop/workflow.yaml")
            assert_passed(anyio.run(run))
        """
    )
    result = pytester.runpytest_subprocess(
        "test_fixture_tools.py",
        "--akit",
        "shop",
        "--akit-tools",
        "shop.order_tools:TOOLS",
        "-v",
    )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*shop/workflow.yaml::custom-tool PASSED*"])


def test_custom_scorers_come_from_akit_scorers(pytester: pytest.Pytester) -> None:
    shutil.copytree(ROOT / "examples" / "support_agent", pytester.path / "support")
    judge = ["--akit-judge-config", "support/judge.yaml"]
    refused = pytester.runpytest_subprocess("--akit", "support/workflow.yaml", *judge)
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    refused.stdout.fnmatch_lines(
        [
            "*workflow.yaml:*$.outcomes[[]3[]].scorer: names a scorer that is not "
            "registered*",
            "hint: register custom scorers with --akit-scorers MODULE:ATTR",
        ]
    )
    scorers = ["--akit-scorers", "support.support_scorers:SCORERS"]
    result = pytester.runpytest_subprocess(
        "--akit", "support/workflow.yaml", *judge, *scorers, "-v"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*support/workflow.yaml::support-agent PASSED*"])
    misbehaving = "support/misbehaving/refund-over-total.workflow.yaml"
    failed = pytester.runpytest_subprocess("--akit", misbehaving, *judge, *scorers)
    failed.assert_outcomes(failed=1)
    assert "refund-within-order-total" in output(failed)
    bad = pytester.runpytest_subprocess(
        "--akit", "support/workflow.yaml", "--akit-scorers", "support.support_scorers"
    )
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--akit-scorers support.support_scorers: expected MODULE:ATTR" in output(bad)


@pytest.mark.parametrize(
    ("spec", "rule"),
    [
        ("shop.order_tools", "expected MODULE:ATTR"),
        ("nowhere.tools:TOOLS", "cannot import module 'nowhere.tools'"),
        ("shop.order_tools:MISSING", "module 'shop.order_tools' has no 'MISSING'"),
        ("shop.order_tools:json", "not a sequence of artemiskit.Tool objects"),
    ],
)
def test_bad_tool_references_are_usage_errors(
    pytester: pytest.Pytester, shop: Path, spec: str, rule: str
) -> None:
    result = pytester.runpytest_subprocess("--akit", "shop", "--akit-tools", spec)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"--akit-tools {spec}: {rule}" in output(result)
    assert "Traceback" not in output(result)


def test_distinct_names_never_share_an_output_folder(pytester: pytest.Pytester) -> None:
    # "x y" gets a slug and a digest of its name, which a plain name can equal;
    # two names that differ only in case are one folder on a case-blind disk.
    digest = hashlib.sha256(b"x y").hexdigest()[:8]
    names = ["x y", f"x-y-{digest}", "Case", "case"]
    for number, name in enumerate(names):
        add_workflow(pytester.path / "wf" / str(number), name, [GOOD])
    result = pytester.runpytest_subprocess("--akit", "wf", "--akit-output-dir", "out")
    result.assert_outcomes(passed=4)
    out = pytester.path / "out"
    folders = sorted(path.name for path in out.iterdir())
    assert len(folders) == 4
    assert len({folder.lower() for folder in folders}) == 4
    seen = set()
    for folder in folders:
        [workflow] = json.loads((out / folder / "suite.json").read_text("utf-8"))[
            "workflows"
        ]
        seen.add(workflow["name"])
    assert seen == set(names)


def test_the_same_name_twice_is_refused_with_an_output_folder(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf" / "a", "twin", [GOOD])
    add_workflow(pytester.path / "wf" / "b", "twin", [GOOD])
    result = pytester.runpytest_subprocess("--akit", "wf", "--akit-output-dir", "out")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*another collected workflow has the same name*"])
