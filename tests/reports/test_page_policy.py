"""Every page's Content-Security-Policy allows exactly what the page inlines."""

from __future__ import annotations

import base64
import hashlib
import html
import json
from pathlib import Path

from artemiskit import __version__
from artemiskit.reports._page import page_assets, static_text
from tests._cli import akit

GOLDEN = Path(__file__).parents[1] / "prompt_response" / "golden"


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def test_a_page_with_the_viewer_allows_that_script_by_its_hash() -> None:
    css, code = static_text("page.css"), static_text("viewer.js")
    assets = page_assets(script=True)
    assert str(assets.css) == css
    assert str(assets.script) == code
    assert code
    assert assets.csp == (
        f"default-src 'none'; style-src-elem {_hash(css)}; "
        f"style-src-attr 'unsafe-inline'; script-src {_hash(code)}; "
        "base-uri 'none'; form-action 'none'"
    )


def test_a_page_without_a_script_allows_none() -> None:
    css = static_text("page.css")
    assets = page_assets(script=False)
    assert str(assets.script) == ""
    assert assets.csp == (
        f"default-src 'none'; style-src-elem {_hash(css)}; "
        "style-src-attr 'unsafe-inline'; script-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


def test_every_page_names_the_artemiskit_version_that_made_it(tmp_path: Path) -> None:
    manifest = json.loads((GOLDEN / "manifest.json").read_text("utf-8"))
    manifest["run_id"] = "golden000000"
    source = tmp_path / "manifest.json"
    source.write_text(json.dumps(manifest), "utf-8")
    page = tmp_path / "r.html"
    done = akit("report", str(source), "--html", str(page))
    assert done.returncode == 0, done.stderr
    assert f"Made by ArtemisKit {__version__} from saved evidence only" in (
        page.read_text("utf-8")
    )


def test_a_suite_report_inlines_the_viewer_script_its_policy_allows(
    example_suite: Path, tmp_path: Path
) -> None:
    page = tmp_path / "r.html"
    done = akit("report", str(example_suite), "--html", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text("utf-8")
    code = static_text("viewer.js")
    assert f"<script>{code}</script>" in text
    assert f"script-src {_hash(code)}" in html.unescape(text)
