"""The one renderer of every HTML page: Jinja2 templates, inline CSS and script.

Every page (the workflow report, the comparison, the prompt-response run report)
extends ``base.html.j2`` and shares one style sheet, so they look alike. A page
loads nothing from outside: its Content-Security-Policy is ``default-src 'none'``
and allows exactly the inline style sheet and the inline script of the page by
their SHA-256 hashes (the hashes are of the exact text inlined, so the same
evidence gives the same bytes). Style *attributes* stay allowed
(``style-src-attr 'unsafe-inline'``): the charts drawn by matplotlib carry their
colours in them, and an attribute can load nothing.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from importlib import resources
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._version import __version__

if TYPE_CHECKING:
    import jinja2

__all__ = ["PageAssets", "page_assets", "render_page", "static_text"]


@functools.cache
def static_text(name: str) -> str:
    """A file of ``artemiskit/reports/static`` (the style sheet, the viewer script)."""
    text = resources.files(__package__).joinpath("static", name).read_text("utf-8")
    lowered = text.lower()
    # Inlined as raw text: nothing in it may end its element early.
    if "</script" in lowered or "</style" in lowered or "<!--" in lowered:
        raise ValueError(f"{name} cannot be inlined into a page")
    return text


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@attrs.frozen(kw_only=True)
class PageAssets:
    """What a page inlines, and the Content-Security-Policy that allows just that.

    Attributes:
        css: The style sheet, inlined in ``<style>``.
        script: The script, inlined in ``<script>`` (empty: the page has none).
        csp: The Content-Security-Policy of the page.
    """

    css: Any
    script: Any
    csp: str


def page_assets(*, script: bool) -> PageAssets:
    """The style sheet, the viewer script when asked, and their policy."""
    from markupsafe import Markup

    css = static_text("page.css")
    code = static_text("viewer.js") if script else ""
    policy = [
        "default-src 'none'",
        f"style-src-elem {_hash(css)}",
        "style-src-attr 'unsafe-inline'",
        f"script-src {_hash(code)}" if code else "script-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    ]
    return PageAssets(css=Markup(css), script=Markup(code), csp="; ".join(policy))


@functools.cache
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("artemiskit.reports", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


def render_page(template: str, *, script: bool = False, **context: Any) -> str:
    """Render ``template`` (which extends ``base.html.j2``) with the shared assets.

    Args:
        template: The template's name in ``artemiskit/reports/templates``.
        script: Whether the page inlines the viewer script.
        **context: The template's variables.
    """
    return (
        _environment()
        .get_template(template)
        .render(page=page_assets(script=script), version=__version__, **context)
    )
