"""The runner and its manifest, against a loopback OpenAI-compatible server."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import anyio
import pytest

from artemiskit import ArtemisKit, ConfigError, TrustedConfig
from artemiskit.prompt_response import (
    NoCasesError,
    RedactionSettings,
    ScenarioRunOptions,
    load_scenario,
    manifest_to_dict,
    manifest_to_json,
    parse_scenario,
    run_scenario,
)
from artemiskit.providers import parse_judge_config, parse_trusted_config
from tests.prompt_response.conftest import (
    CORPUS,
    ExpiringTimer,
    install_plugin,
    model_answer,
)
from tests.providers._chat_server import Computed, NeverAnswer, Reply

if TYPE_CHECKING:
    from pathlib import Path

    from tests.providers._chat_server import ChatServer, RecordedRequest

TOP_KEYS = [
    "version",
    "run_id",
    "project",
    "start_time",
    "end_time",
    "duration_ms",
    "config",
    "resolved_config",
    "metrics",
    "git",
    "provenance",
    "cases",
    "environment",
    "redaction",
]
CASE_KEYS = [
    "id",
    "ok",
    "score",
    "matcherType",
    "reason",
    "latencyMs",
    "tokens",
    "prompt",
    "response",
    "expected",
    "tags",
]


_scenario = parse_scenario


def config_for(url: str) -> TrustedConfig:
    return parse_trusted_config(
        json.dumps({"providers": {"local": {"type": "openai", "base_url": url}}})
    )


def scenario_text(*cases: str, head: str = "") -> str:
    body = "".join(cases)
    return f"name: s\nprovider: local\nmodel: gpt-4o-mini\n{head}cases:\n{body}"


def case(case_id: str, answer: str, extra: str = "") -> str:
    return (
        f"  - id: {case_id}\n    prompt: 'ANSWER:{answer}'\n"
        f"    expected: {{type: contains, values: [ok]}}\n{extra}"
    )


async def test_the_corpus_runs_and_its_manifest_follows_the_fact_sheet(
    model_server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(install_plugin(tmp_path)))
    scenario = await load_scenario(CORPUS / "every-key.yaml")
    judge = parse_judge_config(
        "provider: local\nmodel: judge-model\nmax_requests: 4\ntimeout_ms: 10000\n",
        source=str(tmp_path / "judge.yaml"),
    )
    manifest = await run_scenario(
        scenario,
        options=ScenarioRunOptions(project="corpus"),
        config=config_for(model_server.url),
        judge=judge,
    )
    data = json.loads(manifest_to_json(manifest))
    assert list(data) == TOP_KEYS
    failed = [(c["id"], c["reason"]) for c in data["cases"] if not c["ok"]]
    assert failed == []
    assert data["project"] == "corpus"
    assert data["config"] == {
        "scenario": "every-key",
        "provider": "openai",
        "model": "gpt-4o-mini",
        "temperature": 0,
        "seed": 7,
    }
    assert data["metrics"]["total_cases"] == 12
    assert data["metrics"]["success_rate"] == 1
    assert data["metrics"]["total_tokens"] == 12 * 110
    assert data["metrics"]["cost"]["model"] == "gpt-4o-mini"
    assert data["metrics"]["cost"]["pricing"] == {
        "prompt_per_1k": 0.00015,
        "completion_per_1k": 0.0006,
    }
    assert set(data["environment"]) == {"python_version", "platform", "arch"}
    first = data["cases"][0]
    assert list(first) == [*CASE_KEYS[:1], "name", *CASE_KEYS[1:], "redaction"]
    assert first["expected"] == {"type": "exact", "value": "4", "caseSensitive": True}
    assert first["prompt"] == (
        "2+2 for {{company}} ratio {{ratio}} strict {{strict}} ANSWER: 4 "
    )
    assert data["redaction"] == {
        "enabled": True,
        "patternsUsed": ["email"],
        "replacement": "[REDACTED]",
        "summary": {"promptsRedacted": 1, "responsesRedacted": 1, "totalRedactions": 2},
    }
    last = data["cases"][-1]
    assert last["response"] == "Write to <email>"
    assert last["prompt"][2] == {"role": "user", "content": "ANSWER:Write to <email>"}
    assert last["redaction"] == {
        "redacted": True,
        "promptRedacted": True,
        "responseRedacted": True,
        "redactionCount": 2,
    }
    sent = [r.json for r in model_server.requests if r.json["model"] != "judge-model"]
    assert sent[0]["messages"] == [
        {"role": "system", "content": "You answer for Acme."},
        {"role": "user", "content": "2+2 for Acme ratio 1 strict true ANSWER: 4 "},
    ]
    assert (sent[0]["temperature"], sent[0]["seed"], sent[0]["max_tokens"]) == (
        0,
        7,
        200,
    )
    multi = next(body for body in sent if body["model"] == "gpt-4o")
    assert multi["messages"][0] == {
        "role": "system",
        "content": "You answer for Globex.",
    }
    assert multi["messages"][1] == {"role": "user", "content": "Hi, I am Globex"}
    judged = [r for r in model_server.requests if r.json["model"] == "judge-model"]
    assert len(judged) == 2
    assert manifest_to_json(manifest) == json.dumps(
        manifest_to_dict(manifest), indent=2, ensure_ascii=False
    )
    assert "Write to" not in repr(manifest)


async def test_cases_keep_their_order_under_concurrency(
    model_server: ChatServer,
) -> None:
    cases = [case(f"c{i}", f"ok {i}") for i in range(8)]
    scenario = _scenario(scenario_text(*cases))
    manifest = await run_scenario(
        scenario,
        options=ScenarioRunOptions(concurrency=4),
        config=config_for(model_server.url),
    )
    assert [c.id for c in manifest.cases] == [f"c{i}" for i in range(8)]
    assert [c.response for c in manifest.cases] == [f"ok {i}" for i in range(8)]


async def test_tags_select_cases_and_an_empty_selection_fails(
    model_server: ChatServer,
) -> None:
    scenario = _scenario(
        scenario_text(case("a", "ok", "    tags: [smoke]\n"), case("b", "ok"))
    )
    config = config_for(model_server.url)
    manifest = await run_scenario(
        scenario, options=ScenarioRunOptions(tags=("smoke", "x")), config=config
    )
    assert [c.id for c in manifest.cases] == ["a"]
    with pytest.raises(NoCasesError, match="No test cases to run after filtering"):
        await run_scenario(
            scenario, options=ScenarioRunOptions(tags=("none",)), config=config
        )


async def test_retries_are_honoured_from_the_options(chat_server: ChatServer) -> None:
    chat_server.enqueue(
        Reply(status=500, body={"error": {"code": "boom"}}),
        Reply(status=500, body={"error": {"code": "boom"}}),
        Computed(model_answer),
    )
    scenario = _scenario(scenario_text(case("a", "ok")))
    config = config_for(chat_server.url)
    manifest = await run_scenario(
        scenario, options=ScenarioRunOptions(retries=2, backoff_s=0), config=config
    )
    assert manifest.cases[0].ok
    assert len(chat_server.requests) == 3


async def test_a_case_that_keeps_failing_records_the_error_with_its_prompt_redacted(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(*[Reply(status=500, body={"error": {"code": "x"}})] * 2)
    scenario = _scenario(scenario_text(case("a", "mail a@b.co", "    retries: 1\n")))
    manifest = await run_scenario(
        scenario,
        options=ScenarioRunOptions(
            backoff_s=0, redaction=RedactionSettings(enabled=True)
        ),
        config=config_for(chat_server.url),
    )
    result = manifest.cases[0]
    assert (result.ok, result.score, result.response, result.tokens.total) == (
        False,
        0,
        "",
        0,
    )
    assert result.reason is not None
    assert result.reason.startswith("Failed after 2 attempts: ")
    assert result.error is not None
    assert result.redaction is None
    # The original stored this prompt raw; redaction covers errored cases too.
    assert result.prompt == "ANSWER:mail [REDACTED]"


async def test_the_case_timeout_cancels_the_request(chat_server: ChatServer) -> None:
    chat_server.enqueue(NeverAnswer())
    scenario = _scenario(scenario_text(case("a", "ok", "    timeout: 2000\n")))
    # The case's 2 s pass once the server holds the request (no real wait).
    timer = ExpiringTimer()
    async with anyio.create_task_group() as group:
        group.start_soon(timer.expire_when_hanging, chat_server)
        manifest = await run_scenario(
            scenario,
            options=ScenarioRunOptions(timer=timer),
            config=config_for(chat_server.url),
        )
    assert timer.asked == [2.0]
    assert manifest.cases[0].error == "Timeout after 2000ms"
    assert len(chat_server.requests) == 1
    assert await anyio.to_thread.run_sync(chat_server.wait_for_disconnects, 1)


async def test_a_missing_model_is_a_configuration_error(tmp_path: Path) -> None:
    scenario = _scenario(
        "name: s\ncases:\n  - {id: a, prompt: p, expected: {type: exact, value: x}}\n"
    )
    with pytest.raises(ConfigError, match="no model"):
        await run_scenario(scenario)


async def test_the_kit_runs_a_scenario_file(
    model_server: ChatServer, tmp_path: Path
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(scenario_text(case("a", "ok")), encoding="utf-8")
    kit = ArtemisKit(config=config_for(model_server.url))
    manifest = await kit.run_scenario(path, options=ScenarioRunOptions(project="p"))
    assert manifest.success
    assert manifest.project == "p"


async def test_a_scripted_responder_runs_offline(tmp_path: Path) -> None:
    shutil.copy(CORPUS / "offline.yaml", tmp_path / "offline.yaml")
    shutil.copy(
        CORPUS / "offline-model.script.yaml", tmp_path / "offline-model.script.yaml"
    )
    manifest = await ArtemisKit().run_scenario(tmp_path / "offline.yaml")
    assert [c.ok for c in manifest.cases] == [True, False]
    assert manifest.config.provider == "scripted"


def _embedding_or_answer(request: RecordedRequest) -> Reply:
    if request.path.endswith("/embeddings"):
        text = request.json["input"]
        vector = [1.0, 0.0] if "sky" in text.lower() else [0.0, 1.0]
        return Reply(body={"data": [{"index": 0, "embedding": vector}]})
    return model_answer(request)


async def test_similarity_uses_the_providers_embeddings_endpoint(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(*[Computed(_embedding_or_answer)] * 9)
    scenario = _scenario(
        scenario_text(
            "  - id: near\n    prompt: 'ANSWER:The sky is blue'\n"
            "    expected: {type: similarity, value: Blue sky, embeddingModel: e-3}\n"
            "  - id: far\n    prompt: 'ANSWER:Bananas'\n"
            "    expected: {type: similarity, value: Blue sky, mode: embedding}\n"
        )
    )
    manifest = await run_scenario(scenario, config=config_for(chat_server.url))
    near, far = manifest.cases
    assert (near.ok, near.score) == (True, 1)
    assert near.reason == (
        "Semantic similarity (embedding: e-3): 100.0% (threshold: 75.0%)"
    )
    assert (far.ok, far.score) == (False, 0)
    embedded = [r.json for r in chat_server.requests if r.path.endswith("/embeddings")]
    assert [(body["model"], body["input"]) for body in embedded] == [
        ("e-3", "The sky is blue"),
        ("e-3", "Blue sky"),
        ("text-embedding-3-small", "Bananas"),
        ("text-embedding-3-small", "Blue sky"),
    ]
