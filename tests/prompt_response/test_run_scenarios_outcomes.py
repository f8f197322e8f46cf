"""`run_scenarios` when a step fails: what each outcome says and what is reported.

A scenario that does not load, a run that stops on a configuration error, an
export that cannot be written, a baseline whose run is gone: each fails only its
own scenario, names why in its outcome and in ``scenario_failed`` (or warns), and
makes the call exit 1.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit.prompt_response import (
    Baseline,
    LocalStorage,
    ScenarioRunOptions,
    run_scenarios,
)
from artemiskit.providers import load_judge_config
from tests.prompt_response.test_run_scenarios import GOLDEN, Recorder

if TYPE_CHECKING:
    from artemiskit.prompt_response import RunManifest


class Messages(Recorder):
    """A `Recorder` that keeps the message of every failure and warning."""

    def scenario_failed(self, label: str, message: str) -> None:
        self.events.append(("failed", (label, message)))


def _golden(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("scenario.yaml", "golden.script.yaml"):
        shutil.copy(GOLDEN / name, folder / name)
    return folder / "scenario.yaml"


async def test_an_export_that_cannot_be_written_fails_its_scenario(
    tmp_path: Path,
) -> None:
    scenario = _golden(tmp_path / "s")
    blocked = tmp_path / "exports"
    blocked.write_text("a file where the export folder goes", "utf-8")
    recorder = Messages()
    result = await run_scenarios(
        [scenario],
        storage=LocalStorage(tmp_path / "store"),
        exports=["junit"],
        export_folder=blocked,
        progress=recorder,
    )
    [outcome] = result.outcomes
    assert outcome.manifest is None
    assert outcome.label == "scenario.yaml"
    assert outcome.error is not None
    run_id = LocalStorage(tmp_path / "store").runs()[0].run_id
    assert outcome.error.startswith(
        f"{blocked / run_id}.xml: cannot write the export ("
    )
    assert ("failed", ("scenario.yaml", outcome.error)) in recorder.events
    assert result.exit_code == 1


async def test_a_scenario_that_does_not_load_or_run_fails_alone(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "s"
    _golden(folder)
    (folder / "broken.yaml").write_text(
        "name: broken\ncases:\n  - {id: a, prompt: hi, expected: {type: nope}}\n",
        "utf-8",
    )
    (folder / "modelless.yaml").write_text(
        "name: modelless\nprovider: scripted\n"
        "cases:\n  - {id: a, prompt: hi, expected: {type: contains, values: [x]}}\n",
        "utf-8",
    )
    recorder = Messages()
    result = await run_scenarios(
        [folder], storage=LocalStorage(tmp_path / "store"), progress=recorder
    )
    by_label = {o.label: o for o in result.outcomes}
    assert sorted(by_label) == ["broken.yaml", "modelless.yaml", "scenario.yaml"]
    assert by_label["scenario.yaml"].manifest is not None
    for label in ("broken.yaml", "modelless.yaml"):
        outcome = by_label[label]
        assert outcome.manifest is None
        assert outcome.error
        assert ("failed", (label, outcome.error)) in recorder.events
    problems = {detail for kind, detail in recorder.events if kind == "problem"}
    assert {os.path.basename(path) for path in problems} == {"broken.yaml"}
    runs = result.ci_summary()["runs"]
    assert [(r["scenario"], r["success"]) for r in runs] == [
        ("broken.yaml", False),
        ("modelless.yaml", False),
        ("golden", False),
    ]
    assert result.exit_code == 1


async def test_a_baseline_whose_run_is_gone_is_a_warning_not_a_comparison(
    tmp_path: Path,
) -> None:
    scenario = _golden(tmp_path / "s")
    storage = LocalStorage(tmp_path / "store")
    storage.set_baseline(
        Baseline(
            scenario="golden",
            run_id="gone00000000",
            created_at="2026-01-01T00:00:00.000Z",
            success_rate=1.0,
            median_latency_ms=0.0,
            total_tokens=0,
            passed_cases=6,
            failed_cases=0,
            total_cases=6,
        )
    )
    recorder = Messages()
    result = await run_scenarios(
        [scenario], storage=storage, baseline=True, save=False, progress=recorder
    )
    assert result.checks == ()
    assert result.worst is None
    warnings = [detail for kind, detail in recorder.events if kind == "warning"]
    assert warnings == [
        f"baseline of golden: run gone00000000 not found in {tmp_path / 'store'}"
    ]


async def test_the_json_summary_carries_the_worst_baseline_comparison(
    tmp_path: Path,
) -> None:
    scenario = _golden(tmp_path / "s")
    storage = LocalStorage(tmp_path / "store")
    first = await run_scenarios([scenario], storage=storage)
    [outcome] = first.outcomes
    assert outcome.manifest is not None
    metrics = outcome.manifest.metrics
    storage.set_baseline(
        Baseline(
            scenario="golden",
            run_id=outcome.manifest.run_id,
            created_at="2026-01-01T00:00:00.000Z",
            success_rate=metrics.success_rate,
            median_latency_ms=metrics.median_latency_ms,
            total_tokens=metrics.total_tokens,
            passed_cases=metrics.passed_cases,
            failed_cases=metrics.failed_cases,
            total_cases=metrics.total_cases,
        )
    )
    again = await run_scenarios([scenario], storage=storage, baseline=True)
    [check] = again.checks
    summary: dict[str, Any] = again.ci_summary()
    assert "baseline" not in first.ci_summary()
    assert summary["baseline"]["hasRegression"] is False
    assert summary["baseline"]["threshold"] == check.threshold


async def test_a_secret_looking_variable_never_reaches_the_stored_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCENARIO_PROBE_API_KEY", "Zq7SENTINELx9-key")
    scenario = _golden(tmp_path / "s")
    scenario.write_text(
        scenario.read_text("utf-8").replace(
            "prompt: Order status?", "prompt: Order status ${SCENARIO_PROBE_API_KEY}?"
        ),
        "utf-8",
    )
    storage = LocalStorage(tmp_path / "store")
    recorder = Messages()
    result = await run_scenarios([scenario], storage=storage, progress=recorder)
    [outcome] = result.outcomes
    assert outcome.manifest is not None
    stored = storage.find(outcome.manifest.run_id)
    assert stored is not None
    assert "Zq7SENTINELx9" not in stored.read_text("utf-8")
    notices = [detail for kind, detail in recorder.events if kind == "notice"]
    assert any("SCENARIO_PROBE_API_KEY" in notice for notice in notices)


async def test_options_reach_every_scenario_and_baselines_are_opt_in(
    tmp_path: Path,
) -> None:
    scenario = _golden(tmp_path / "s")
    storage = LocalStorage(tmp_path / "store")
    tagged = await run_scenarios(
        [scenario], storage=storage, options=ScenarioRunOptions(tags=("smoke",))
    )
    [outcome] = tagged.outcomes
    assert outcome.manifest is not None
    assert outcome.manifest.metrics.total_cases == 1
    storage.set_baseline(
        Baseline(
            scenario="golden",
            run_id=outcome.manifest.run_id,
            created_at="2026-01-01T00:00:00.000Z",
            success_rate=1.0,
            median_latency_ms=0.0,
            total_tokens=0,
            passed_cases=1,
            failed_cases=0,
            total_cases=1,
        )
    )
    plain = await run_scenarios([scenario], storage=storage, save=False)
    assert plain.checks == ()
    compared = await run_scenarios(
        [scenario], storage=storage, save=False, baseline=True
    )
    [check] = compared.checks
    assert check.has_regression  # 4 of 6 against the baseline's 1 of 1


async def test_a_variable_holding_the_judges_credential_is_withheld(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_CREDENTIAL_VALUE", "Zq7SENTINELx9-judge")
    monkeypatch.setenv("PLAIN_LOOKING", "Zq7SENTINELx9-judge")
    judge_file = tmp_path / "judge.yaml"
    judge_file.write_text(
        "provider: mine\nmodel: grader\nproviders:\n"
        "  mine: {type: openai, api_key_env: JUDGE_CREDENTIAL_VALUE}\n",
        "utf-8",
    )
    judge = await load_judge_config(judge_file)
    scenario = _golden(tmp_path / "s")
    scenario.write_text(
        scenario.read_text("utf-8").replace(
            "prompt: Order status?", "prompt: Order status ${PLAIN_LOOKING}?"
        ),
        "utf-8",
    )
    storage = LocalStorage(tmp_path / "store")
    recorder = Messages()
    result = await run_scenarios(
        [scenario], storage=storage, judge=judge, progress=recorder
    )
    [outcome] = result.outcomes
    assert outcome.manifest is not None
    stored = storage.find(outcome.manifest.run_id)
    assert stored is not None
    assert "Zq7SENTINELx9" not in stored.read_text("utf-8")
    # Withheld, so never sent to the model either: the load says so.
    notices = [detail for kind, detail in recorder.events if kind == "notice"]
    assert any("PLAIN_LOOKING" in notice for notice in notices)


def _model_source(manifest: RunManifest) -> str:
    resolved = manifest.resolved_config
    assert resolved is not None
    source: str = resolved.source["model"]
    return source


async def test_the_manifest_says_where_the_model_came_from(tmp_path: Path) -> None:
    scenario = _golden(tmp_path / "s")
    text = scenario.read_text("utf-8")
    scenario.write_text(text.replace("model: golden\n", ""), "utf-8")
    sources = []
    for options in (
        ScenarioRunOptions(default_model="golden"),
        ScenarioRunOptions(model="golden"),
    ):
        result = await run_scenarios([scenario], options=options, save=False)
        [outcome] = result.outcomes
        assert outcome.manifest is not None
        sources.append(_model_source(outcome.manifest))
    scenario.write_text(text, "utf-8")
    result = await run_scenarios([scenario], save=False)
    [outcome] = result.outcomes
    assert outcome.manifest is not None
    sources.append(_model_source(outcome.manifest))
    assert sources == ["config", "cli", "scenario"]
