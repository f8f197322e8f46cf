"""``--export markdown|junit``: the TypeScript report files, from a manifest.

JUnit is one ``<testsuite>`` (no wrapper), built with `xml.etree` so that every
text is escaped and a ``]]>`` in a response cannot break the file (the original
wrote raw CDATA; here the same content is an escaped text node).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response._pricing import format_cost
from artemiskit.prompt_response._summary import format_duration

if TYPE_CHECKING:
    from artemiskit.prompt_response._manifest import CaseResult, RunManifest

__all__ = ["junit_export", "markdown_export", "printable_text"]

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable_text(text: str) -> str:
    """``text`` with lone surrogates (which no file encoding takes) as U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def _clean(text: str) -> str:
    return printable_text(_CONTROL.sub("", text))


def _prompt_text(case: CaseResult) -> str:
    if isinstance(case.prompt, str):
        return case.prompt
    return json.dumps(case.prompt, indent=2, ensure_ascii=False)


def _cut(text: str, limit: int, suffix: str = "...") -> str:
    return text if len(text) <= limit else text[:limit] + suffix


def junit_export(manifest: RunManifest) -> str:
    """The JUnit XML text of a run (no trailing newline)."""
    metrics = manifest.metrics
    suite = ET.Element(
        "testsuite",
        {
            "name": manifest.config.scenario,
            "tests": str(metrics.total_cases),
            "failures": str(metrics.failed_cases),
            "errors": "0",
            "skipped": "0",
            "time": to_fixed(manifest.duration_ms / 1000, 3),
            "timestamp": manifest.start_time,
        },
    )
    properties = ET.SubElement(suite, "properties")
    entries = [
        ("artemis.run_id", manifest.run_id),
        ("artemis.version", manifest.version),
        ("artemis.provider", manifest.config.provider),
    ]
    if manifest.config.model:
        entries.append(("artemis.model", manifest.config.model))
    entries += [
        ("artemis.success_rate", f"{to_fixed(metrics.success_rate * 100, 1)}%"),
        ("artemis.total_tokens", str(metrics.total_tokens)),
    ]
    if metrics.cost is not None:
        entries.append(("artemis.cost_usd", to_fixed(metrics.cost.total_usd, 6)))
    for name, value in entries:
        ET.SubElement(properties, "property", {"name": name, "value": _clean(value)})
    for case in manifest.cases:
        testcase = ET.SubElement(
            suite,
            "testcase",
            {
                "name": _clean(case.id),
                "classname": _clean(manifest.config.scenario),
                "time": to_fixed(case.latency_ms / 1000, 3),
            },
        )
        if not case.ok:
            failure = ET.SubElement(
                testcase,
                "failure",
                {
                    "message": _clean(case.reason or "Test failed"),
                    "type": case.matcher_type,
                },
            )
            failure.text = _clean(
                "\n".join(
                    [
                        f"Matcher Type: {case.matcher_type}",
                        f"Expected: {json.dumps(case.expected, indent=2)}",
                        f"Score: {to_fixed(case.score * 100, 1)}%",
                        f"Reason: {case.reason or ''}",
                    ]
                )
            )
        if case.response:
            out = ET.SubElement(testcase, "system-out")
            out.text = _clean(_cut(case.response, 2000, "...(truncated)"))
        if not case.ok and case.reason:
            err = ET.SubElement(testcase, "system-err")
            err.text = _clean(
                f"Error: {case.reason}\nPrompt: {_cut(_prompt_text(case), 1000)}"
            )
    ET.indent(suite, space="  ")
    body = ET.tostring(suite, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body


def _fence(text: str) -> str:
    return "```\n" + text.replace("```", "`\u200b``") + "\n```"


def markdown_export(manifest: RunManifest) -> str:
    """The Markdown report of a run."""
    metrics = manifest.metrics
    provider = manifest.config.provider
    if manifest.config.model:
        provider += f" ({manifest.config.model})"
    passed_pct = to_fixed(metrics.success_rate * 100, 1)
    lines = [
        "# ArtemisKit Test Results",
        "",
        f"**Scenario:** {manifest.config.scenario}",
        f"**Run ID:** {manifest.run_id}",
        f"**Date:** {manifest.start_time}",
        f"**Provider:** {provider}",
        "",
        "---",
        "",
        "## Summary",
        "",
        "| Metric | Value |",
        "|--------|-------|",
        f"| Total Cases | {metrics.total_cases} |",
        f"| Passed | {metrics.passed_cases} ({passed_pct}%) |",
        f"| Failed | {metrics.failed_cases} |",
        f"| Duration | {format_duration(manifest.duration_ms)} |",
        f"| Median Latency | {metrics.median_latency_ms}ms |",
        f"| P95 Latency | {metrics.p95_latency_ms}ms |",
        f"| Total Tokens | {metrics.total_tokens} |",
    ]
    if metrics.cost is not None:
        lines.append(f"| Estimated Cost | {format_cost(metrics.cost.total_usd)} |")
    passed = [case for case in manifest.cases if case.ok]
    failed = [case for case in manifest.cases if not case.ok]
    lines += ["", "## Results by Case", "", f"### Passed ({len(passed)})", ""]
    lines += ["<details>", "<summary>Show passed cases</summary>", ""]
    lines += [
        "| Case ID | Latency | Tokens | Score |",
        "|---------|---------|--------|-------|",
    ]
    for case in passed:
        score = to_fixed(case.score * 100, 1)
        lines.append(
            f"| {case.id} | {case.latency_ms}ms | {case.tokens.total} | {score}% |"
        )
    lines += ["", "</details>", "", f"### Failed ({len(failed)})", ""]
    for case in failed:
        lines += [
            f"#### `{case.id}`",
            "",
            "**Prompt:**",
            _fence(_cut(_prompt_text(case), 500)),
            "",
            f"**Expected:** {case.matcher_type}",
            "```json",
            _cut(json.dumps(case.expected, indent=2), 500),
            "```",
            "",
            "**Actual Response:**",
            _fence(_cut(case.response, 500)),
            "",
            f"**Reason:** {case.reason or ''}",
            "",
        ]
    if manifest.resolved_config is not None:
        resolved = manifest.resolved_config
        lines += ["## Configuration", "", "```yaml", f"provider: {resolved.provider}"]
        if resolved.model:
            lines.append(f"model: {resolved.model}")
        lines += ["```", ""]
    if manifest.redaction is not None:
        summary = manifest.redaction.summary
        lines += [
            "## Redaction",
            "",
            f"- Patterns: {', '.join(manifest.redaction.patterns_used)}",
            f"- Prompts redacted: {summary.prompts_redacted}",
            f"- Responses redacted: {summary.responses_redacted}",
            f"- Total redactions: {summary.total_redactions}",
            "",
        ]
    lines += ["---", "", f"*Generated by ArtemisKit v{manifest.version}*"]
    return printable_text("\n".join(lines))
