"""Tool-argument texts that are legal JSON (or nearly) and hostile to a decoder."""

from __future__ import annotations

DEEP = 5000

#: name -> the arguments text exactly as a model would send it
HOSTILE_ARGUMENTS: dict[str, str] = {
    "escaped-lone-surrogate": '{"path": "docs/\\ud800.md"}',
    "raw-lone-surrogate": '{"path": "docs/\ud800.md"}',
    "surrogate-in-key": '{"\\udfff": "docs/policy.md"}',
    "deep-list": '{"path": ' + "[" * DEEP + "]" * DEEP + "}",
    "deep-object": '{"path": ' + '{"a": ' * DEEP + "1" + "}" * DEEP + "}",
    "deep-top-level": "[" * DEEP + "]" * DEEP,
    "huge-integer": '{"path": 1' + "0" * DEEP + "}",
    "nan": '{"path": NaN}',
    "overflowing-float": '{"path": 1e400}',
    "moderately-deep": '{"path": ' + "[" * 200 + "]" * 200 + "}",
}
