"""Two suites made with different models compare as a different target, never as
a changed contract (SPEC 19, "Identity").

The ticket-triage dataset of ``examples/datasets`` runs offline on two scripted
models, once per suite; the comparison reads both folders back from disk.
"""

from __future__ import annotations

import json
from pathlib import Path

from artemiskit import ArtemisKit
from artemiskit.reports import compare_reports, comparison_markdown, load_report_input
from artemiskit.suites import load_suite_record
from tests.examples._blocks import ROOT

TRIAGE = ROOT / "examples" / "datasets" / "triage.workflow.yaml"


async def _suite(out: Path, target: str) -> None:
    await ArtemisKit().run_suite(
        paths=[TRIAGE], output_dir=out, min_pass_rate=0, targets=[target]
    )


async def test_suites_of_two_models_differ_in_target_not_in_contract(
    tmp_path: Path,
) -> None:
    await _suite(tmp_path / "base", "scripted:agent")
    await _suite(tmp_path / "cand", "scripted:careful")
    base = load_suite_record(tmp_path / "base" / "suite.json")
    cand = load_suite_record(tmp_path / "cand" / "suite.json")
    # The contract digest is the same; the target ids differ.
    assert base["workflows"][0]["digest"] == cand["workflows"][0]["digest"]
    assert {u["target"] for u in base["units"]} == {"scripted:agent"}
    assert {u["target"] for u in cand["units"]} == {"scripted:careful"}
    records = {
        side: [
            json.loads(p.read_text("utf-8"))
            for p in sorted((tmp_path / side / "runs").rglob("*.record.json"))
        ]
        for side in ("base", "cand")
    }
    for base_record, cand_record in zip(records["base"], records["cand"], strict=True):
        assert base_record["case"] == cand_record["case"]
        assert base_record["workflow"]["digest"] == cand_record["workflow"]["digest"]
        assert base_record["target"]["id"] == "scripted:agent"
        assert cand_record["target"]["id"] == "scripted:careful"
    # Units pair up by (workflow, case): 20 on each side, the same keys.
    assert [(u["workflow"], u["case"]) for u in base["units"]] == [
        (u["workflow"], u["case"]) for u in cand["units"]
    ]
    assert len(base["units"]) == 20
    comparison = compare_reports(
        await load_report_input([str(tmp_path / "base")]),
        await load_report_input([str(tmp_path / "cand")]),
    )
    (row,) = comparison.workflows
    assert row.contract_changed is False
    assert row.target_changed is True
    assert not row.regressed
    assert "contract changed" not in comparison_markdown(comparison).lower()
