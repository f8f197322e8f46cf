"""Generated pytest projects: workflows whose every sensitive place holds a sentinel.

The sentinel sits in the description, the system prompt, the user turn, a file's
path and content, the model's tool arguments and its text. Nothing of it may reach
pytest's output or a JUnit file.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["BAD", "GOOD", "SENTINEL", "SHORT", "add_workflow", "leaks"]

SENTINEL = "Zq7SENTINELx9"

#: A variant that writes the right answer, one that writes a wrong one, and one
#: whose script ends after the first call (the scripted model runs out: errored).
GOOD = "right"
BAD = "wrong"
SHORT = "short"


def _variant(kind: str) -> list[dict[str, object]]:
    answer = "42" if kind == GOOD else "48"
    entries: list[dict[str, object]] = [
        {
            "tool_calls": [
                {
                    "name": "read_file",
                    "arguments": {"path": f"docs/{SENTINEL}-question.md"},
                }
            ],
            "usage": {"input_tokens": 80, "output_tokens": 12},
        },
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {
                        "path": "out/answer.md",
                        "content": f"{answer} {SENTINEL}-argument\n",
                    },
                }
            ],
            "usage": {"input_tokens": 110, "output_tokens": 14},
        },
        {
            "text": f"The model says {SENTINEL}-text.",
            "usage": {"input_tokens": 130, "output_tokens": 9},
        },
    ]
    return entries[:1] if kind == SHORT else entries


def add_workflow(
    folder: Path,
    name: str,
    variants: list[str],
    *,
    tags: list[str] | None = None,
    file_name: str = "workflow.yaml",
    extra: str = "",
) -> Path:
    """Write a workflow and its script under ``folder``; return the workflow file.

    Args:
        folder: Where the workflow file and its script go (created).
        name: The workflow's name.
        variants: ``GOOD`` / ``BAD`` per script variant (repetition r replays
            variant (r - 1) mod len).
        tags: The workflow's ``tags:``.
        file_name: ``workflow.yaml`` or ``NAME.workflow.yaml``.
        extra: YAML appended to the workflow.
    """
    folder.mkdir(parents=True, exist_ok=True)
    script = {"version": 1, "variants": [_variant(kind) for kind in variants]}
    (folder / f"{name}.script.yaml").write_text(json.dumps(script), "utf-8")
    lines = [
        "version: 1",
        f"name: {name}",
        f"description: Secret plan {SENTINEL}-description.",
        f"tags: {json.dumps(tags)}" if tags else "",
        f"target: {{provider: scripted, model: {name}}}",
        "environment:",
        "  files:",
        f'    docs/{SENTINEL}-question.md: "Six times seven? {SENTINEL}-file"',
        "tools:",
        '  - {name: read_file, allow: {paths: ["docs/**"]}}',
        '  - {name: write_file, allow: {paths: ["out/*.md"]}}',
        "conversation:",
        f"  system: Be exact, {SENTINEL}-system.",
        "  turns:",
        f"    - user: Answer into out/answer.md, {SENTINEL}-prompt.",
        "budgets: {max_actions: 10, max_tokens: 5000, timeout_ms: 30000}",
        "outcomes:",
        "  - {id: answer-is-42, file: out/answer.md, contains: ['42']}",
        "  - {id: wrote-once, tool_called: write_file, min: 1, max: 1}",
        extra,
    ]
    path = folder / file_name
    path.write_text("\n".join(line for line in lines if line) + "\n", "utf-8")
    return path


def leaks(text: str) -> bool:
    """Whether ``text`` holds the sentinel (case-insensitively, in any escape)."""
    return SENTINEL.lower() in text.lower()
