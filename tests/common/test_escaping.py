"""The one escaping per export format: Markdown shows any text literally, XML parses."""

from __future__ import annotations

import html
from xml.etree import ElementTree

from hypothesis import given, strategies as st
from markdown_it import MarkdownIt

from artemiskit._common._escaping import MAX_CELL, markdown_text, visible, xml_text

_WHITESPACE_CONTROLS = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
_MARKDOWN = MarkdownIt("commonmark").enable("table")
_TEXT = st.text(
    st.characters(codec=None, exclude_categories=())
    | st.sampled_from("#*_[]()<>&|`$\\!\r\n\x1b\u202e"),
    max_size=60,
)


def _plain(value: str) -> str:
    shown = " ".join(visible(value, keep=_WHITESPACE_CONTROLS).split())
    return shown if len(shown) <= MAX_CELL else shown[: MAX_CELL - 1] + "…"


@given(_TEXT)
def test_markdown_shows_any_text_literally(value: str) -> None:
    plain = _plain(value)
    rendered = _MARKDOWN.render(markdown_text(value))
    if not plain:
        assert rendered == ""
        return
    assert rendered.startswith("<p>")
    assert rendered.endswith("</p>\n")
    inner = rendered[3:-5]
    assert "<" not in inner
    assert html.unescape(inner) == plain


@given(_TEXT)
def test_a_markdown_cell_stays_one_cell(value: str) -> None:
    table = f"| a | b |\n|---|---|\n| {markdown_text(value)} | end |\n"
    rendered = _MARKDOWN.render(table)
    assert rendered.count("<td>") == 2
    assert "<td>end</td>" in rendered


@given(_TEXT)
def test_xml_text_is_well_formed_and_kept(value: str) -> None:
    element = ElementTree.Element("case", name=xml_text(value))
    element.text = xml_text(value)
    parsed = ElementTree.fromstring(ElementTree.tostring(element, encoding="unicode"))
    assert parsed.get("name") == xml_text(value)
    assert (parsed.text or "") == xml_text(value).replace("\r", "\n")


def test_controls_become_visible_escapes() -> None:
    assert visible("a\x1b]0;t\x07b\u202ec\x9bd\udc80") == (
        "a\\x1b]0;t\\x07b\\u202ec\\x9bd\\udc80"
    )
    assert markdown_text("# h\r<b>x</b> $m$") == "\\# h &lt;b&gt;x&lt;\\/b&gt; \\$m\\$"
    assert xml_text("a\tb\nc\x00") == "a\tb\nc\\x00"
