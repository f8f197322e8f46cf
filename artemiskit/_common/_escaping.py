r"""Strings from evidence made safe for the formats exports are read in.

Workflow names, requirement ids and reason codes come from files people write;
CI shows them in job summaries (Markdown with inline HTML), test reports (JUnit
XML) and logs. Each format has one function here, and every export uses it:

- `visible`: control characters (C0, DEL, C1), the bidirectional controls that
  can reorder what a reader sees, the non-characters U+FFFE/U+FFFF and lone
  surrogates become visible escapes such as ``\x1b`` or ``\u202e``; nothing a
  terminal or a parser would act on is left.
- `markdown_text`: one line that GitHub-flavoured Markdown shows literally:
  `visible`, whitespace runs as one space, HTML's ``&``, ``<`` and ``>`` as
  entities, every other ASCII punctuation character backslash-escaped (so no
  heading, link, emphasis, table cell break or math), shortened to a limit.
- `xml_text`: text XML 1.0 accepts: `visible`, keeping tab and newline (the
  XML writer escapes markup itself).
"""

from __future__ import annotations

import string

__all__ = ["markdown_text", "visible", "xml_text"]

_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_PUNCTUATION = frozenset(string.punctuation) - _ENTITIES.keys()
MAX_CELL = 120
"""The longest Markdown cell text, in characters, before it is shortened."""


def _hidden(character: str) -> bool:
    code = ord(character)
    return (
        code < 0x20
        or 0x7F <= code <= 0x9F
        or 0xD800 <= code <= 0xDFFF
        or code in (0xFFFE, 0xFFFF)
        or character in _BIDI_CONTROLS
    )


def _escape(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(value: object, *, keep: str = "") -> str:
    r"""``value`` as text with every control character shown as an escape.

    Args:
        value: Any value; its ``str`` is used.
        keep: Control characters to leave as they are (``"\t\n"`` for XML).
    """
    text = str(value)
    if not any(_hidden(c) for c in text):
        return text
    return "".join(_escape(c) if _hidden(c) and c not in keep else c for c in text)


def markdown_text(value: object, *, limit: int = MAX_CELL) -> str:
    """``value`` as one line of Markdown that shows literally (table cells too)."""
    # Whitespace controls become one space; every other control an escape.
    shown = " ".join(visible(value, keep="\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f").split())
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return "".join(
        _ENTITIES.get(c) or (f"\\{c}" if c in _PUNCTUATION else c) for c in shown
    )


def xml_text(value: object) -> str:
    """``value`` as text XML 1.0 accepts, control characters shown as escapes."""
    return visible(value, keep="\t\n")
