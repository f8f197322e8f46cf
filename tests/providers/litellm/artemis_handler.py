"""A LiteLLM custom handler that plays a tool-calling model, loaded by the proxy.

It runs inside the LiteLLM proxy's own virtualenv, not the project's: only the
standard library and litellm are imported. It answers from the conversation alone
(no state), like the scripted provider: the preflight probe gets its tool call with
the nonce it was given, then a sentence; the test workflow gets ``read_file``, then
``write_file``, then ``Done.``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import litellm  # type: ignore[import-not-found]

_NONCE = re.compile(r"nonce '([^']*)'")
_USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _text(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content)
    return str(content or "")


def _answer(messages: list[Any]) -> dict[str, Any]:
    results = sum(
        1 for m in messages if isinstance(m, dict) and m.get("role") == "tool"
    )
    opening = " ".join(_text(m) for m in messages[:2])
    nonce = _NONCE.search(opening)
    if nonce is not None:
        calls = [] if results else [("artemiskit_probe", {"nonce": nonce.group(1)})]
        text = "Probe done." if results else None
    else:
        script = [
            ("read_file", {"path": "docs/policy.md"}),
            ("write_file", {"path": "out/summary.md", "content": "30 days"}),
        ]
        calls = [script[results]] if results < len(script) else []
        text = None if calls else "Done."
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call_{results}_{name}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for name, arguments in calls
        ]
    return {
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
        "usage": _USAGE,
    }


class ArtemisHandler(litellm.CustomLLM):  # type: ignore[misc]
    """The mock model behind ``artemis-mock/...`` model names."""

    def completion(self, *args: Any, **kwargs: Any) -> Any:
        """Answer synchronously."""
        return litellm.ModelResponse(**_answer(list(kwargs.get("messages") or [])))

    async def acompletion(self, *args: Any, **kwargs: Any) -> Any:
        """Answer (the proxy calls this one)."""
        return self.completion(*args, **kwargs)


handler = ArtemisHandler()
