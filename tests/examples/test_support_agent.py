"""examples/support_agent: each outcome fails when the agent misbehaves that way.

The misbehaving workflows are the support-agent workflow against other scripted
agents; run through ``akit`` (offline, scripted judge), each fails the outcome that
states the rule it breaks. The careless draft, which only a judge reading the drafts
can catch, is shown by ``run.py`` with a judge that reads what ``sees`` gives it
(``test_examples.py`` runs it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._cli import AKIT
from tests.examples.test_examples import ROOT, outcome, run

HERE = ROOT / "examples" / "support_agent"
BASE = HERE / "workflow.yaml"
SCORERS = ["--scorers", "examples.support_agent.support_scorers:SCORERS"]
JUDGE = ["--judge-config", str(HERE / "judge.yaml")]
FAILING = {
    "wrong-order": {"refunded-the-right-order", "looked-up-before-refunding"},
    "refund-too-much": {"never-refund-over-100", "refund-within-order-total"},
    "refund-over-total": {"refund-within-order-total"},
    "refund-before-lookup": {"looked-up-before-refunding"},
    "careless-draft": set(),  # the scripted judge scores; run.py reads the drafts
}


def _body(path: Path) -> str:
    text = path.read_text()
    return text[text.index("version: 1") :]


def test_the_misbehaving_workflows_differ_from_the_base_in_name_and_model_only() -> (
    None
):
    base = _body(BASE)
    for name in FAILING:
        variant = _body(HERE / "misbehaving" / f"{name}.workflow.yaml")
        assert variant == base.replace(
            "name: support-agent\n", f"name: support-agent-{name}\n"
        ).replace("  model: support-agent\n", f"  model: {name}\n")


@pytest.mark.parametrize("name", sorted(FAILING))
def test_each_misbehaviour_fails_its_outcome(name: str, tmp_path: Path) -> None:
    record_path = tmp_path / "record.json"
    workflow = HERE / "misbehaving" / f"{name}.workflow.yaml"
    command = [*AKIT, "workflow", "run", str(workflow), "--output", str(record_path)]
    done = run([*command, *SCORERS, *JUDGE])
    expected = FAILING[name]
    assert done.returncode == (8 if expected else 0), outcome(done)
    record = json.loads(record_path.read_text())
    requirements = record["task_verification"]["requirements"]
    assert {r["id"] for r in requirements if r["status"] == "failed"} == expected
    for requirement in requirements:
        assert f"{requirement['id']}: {requirement['status']}" in done.stderr


def test_without_scorers_validation_reports_the_scorer_unchecked() -> None:
    done = run([*AKIT, "scenario", "validate", str(BASE)])
    assert done.returncode == 0, outcome(done)
    assert "unchecked: scorer outcomes refund-within-order-total" in done.stderr
    checked = run([*AKIT, "scenario", "validate", str(BASE), *SCORERS])
    assert checked.returncode == 0, outcome(checked)
    assert "unchecked" not in checked.stderr


def test_a_run_without_the_scorers_is_refused_at_the_scorer_outcome() -> None:
    done = run([*AKIT, "workflow", "run", str(BASE), *JUDGE])
    assert done.returncode == 2, outcome(done)
    assert "workflow.yaml:" in done.stderr
    assert "$.outcomes[3].scorer" in done.stderr
    assert "not registered" in done.stderr


def test_a_suite_takes_the_scorers_too(tmp_path: Path) -> None:
    misbehaving = HERE / "misbehaving" / "refund-over-total.workflow.yaml"
    output = tmp_path / "suite"
    command = [*AKIT, "workflow", "run", str(BASE), str(misbehaving)]
    done = run([*command, "--output-dir", str(output), *SCORERS, *JUDGE])
    assert done.returncode == 8, outcome(done)
    suite = json.loads((output / "suite.json").read_text())
    rates = {w["name"]: w["pass_rate"] for w in suite["workflows"]}
    assert rates == {"support-agent": 1.0, "support-agent-refund-over-total": 0.0}
