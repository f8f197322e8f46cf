"""Every pattern ``akit run`` applies to model text matches in linear time (RE2).

The TypeScript patterns, run by a backtracking engine, took minutes on one answer
(``api_request_handler_factory_builder_service_v2`` under ``--redact``) and
quadratic time on long runs of letters (``email``). The bound here is on work, not
on wall time: the whole run happens in a child process whose CPU time is limited by
``RLIMIT_CPU``, far above what linear matching needs and far below what
backtracking needs, so a backtracking engine is killed by the kernel (SIGXCPU).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from typing import TYPE_CHECKING

from tests._cli import akit
from tests.prompt_response.conftest import write_config
from tests.providers._chat_server import Computed, chat_reply

if TYPE_CHECKING:
    from pathlib import Path

    from tests.providers._chat_server import ChatServer, RecordedRequest, Reply

REPORTED = "api_request_handler_factory_builder_service_v2"
#: 200 KB with no match for any built-in pattern, each a worst case for one of them.
ADVERSARIAL = (
    REPORTED * 40
    + " "
    + "a" * 100_000  # email: every start scans the run for an @
    + " "
    + "1" * 50_000  # phone, ssn, credit_card, ipv4
    + " "
    + "key_"
    + "ab_" * 15_000  # api_key: nested repetition, no 10-character tail
)
CPU_SECONDS = 20


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def _bounded(
    args: list[str], cwd: Path | None = None, program: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        input=program,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=_limit_cpu,
        env={**os.environ},
    )


def test_redacting_the_reported_answer_and_200_kb_takes_linear_work() -> None:
    program = textwrap.dedent(
        f"""
        from artemiskit.prompt_response._redaction import Redactor, RedactionSettings
        from artemiskit.prompt_response._redaction import BUILTIN_PATTERNS
        redactor = Redactor.from_settings(
            RedactionSettings(enabled=True, patterns=tuple(BUILTIN_PATTERNS))
        )
        reported = redactor.redact({REPORTED!r} + " and sk-" + "A" * 24)
        print(reported.text, reported.count)
        text = {ADVERSARIAL!r}
        for _ in range(5):
            done = redactor.redact(text)
        print(len(text), done.count)
        """
    )
    done = _bounded([sys.executable, "-"], program=program)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    first, second = done.stdout.splitlines()
    assert first == f"{REPORTED} and [REDACTED] 1"
    assert second.split() == [str(len(ADVERSARIAL)), "0"]


def _echo_after_answer(request: RecordedRequest) -> Reply:
    return chat_reply(content=request.json["messages"][-1]["content"][7:])


def test_akit_run_redacts_and_evaluates_an_adversarial_answer_in_linear_work(
    chat_server: ChatServer, tmp_path: Path
) -> None:
    chat_server.enqueue(*[Computed(_echo_after_answer)] * 4)
    write_config(tmp_path, chat_server.url)
    answer = ADVERSARIAL + " contact a@b.co"
    cases = [
        ("reported", {"type": "contains", "values": ["zzz"]}),
        ("regex", {"type": "regex", "pattern": "^(a+)+$"}),
        ("inline", {"type": "inline", "expression": "response.match(/(1+1+)+x/)"}),
        ("exact", {"type": "exact", "value": "nope"}),
    ]
    scenario = {
        "name": "linear",
        "provider": "local",
        "model": "m",
        "cases": [
            {"id": name, "prompt": f"ANSWER:{answer}", "expected": expected}
            for name, expected in cases
        ],
    }
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "linear.yaml").write_text(json.dumps(scenario), encoding="utf-8")
    done = _bounded(
        [sys.executable, "-m", "artemiskit_cli", "run", "scenarios", "--redact"],
        cwd=tmp_path,
    )
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    [path] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert [case["ok"] for case in manifest["cases"]] == [False] * 4
    for case in manifest["cases"]:
        assert case["response"].endswith("contact [REDACTED]")
        assert "a@b.co" not in case["prompt"]
    assert manifest["redaction"]["summary"]["totalRedactions"] == 8


def _scenario(folder: Path, expected: str, redaction: str = "") -> Path:
    path = folder / "scenarios" / "bad.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(
        f"name: bad\nprovider: local\nmodel: m\n{redaction}cases:\n"
        "  - id: fine\n    prompt: hi\n    expected: {type: contains, values: [x]}\n"
        f"  - id: needs-backtracking\n    prompt: hi\n    expected: {expected}\n",
        encoding="utf-8",
    )
    return path


def test_a_backreference_or_look_around_is_a_validation_error_with_file_line_case(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    where = "scenarios/bad.yaml:10:"
    for expected, key in (
        (r"{type: regex, pattern: '(a)\1'}", "pattern"),
        ("{type: regex, pattern: '(?<=x)y', flags: i}", "pattern"),
        ("{type: inline, expression: 'response.match(/(?!x)y/)'}", "expression"),
    ):
        _scenario(tmp_path, expected)
        for command in (("validate", "scenarios"), ("run", "scenarios")):
            done = akit(*command, cwd=tmp_path)
            assert done.returncode == 1, done.stderr
            assert "Traceback" not in done.stderr
            line = next(x for x in done.stderr.splitlines() if where in x)
            assert f": $.cases[1].expected.{key}: " in line
            assert "backreferences and look-around are not supported" in line
            assert line.endswith("(case 'needs-backtracking')")
    assert model_server.requests == []


def test_a_redaction_pattern_that_needs_backtracking_is_refused(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    _scenario(
        tmp_path,
        "{type: contains, values: [x]}",
        "redaction: {enabled: true, patterns: [email, '(\\w)\\1']}\n",
    )
    done = akit("run", "scenarios", cwd=tmp_path)
    assert done.returncode == 1
    assert "$.redaction.patterns[1]: is neither a built-in pattern name" in done.stderr
    (tmp_path / "scenarios" / "bad.yaml").unlink()
    _scenario(tmp_path, "{type: contains, values: [x]}")
    flag = akit(
        "run", "scenarios", "--redact", "--redact-patterns", "(?=a)", cwd=tmp_path
    )
    assert flag.returncode == 2
    assert "--redact-patterns" in flag.stderr
    assert "Traceback" not in flag.stderr
    assert model_server.requests == []
