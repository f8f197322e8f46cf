"""The HTML reports in a real browser: Debian's Chromium, headless, from ``file://``.

Each kind of page (suite overview, with and without transcripts, a single record,
a comparison, a hostile record) must render with no console message of level
error, no page error and no request other than the file itself; the numbers the
DOM shows must be those of ``suite.json``. Chromium is driven through Playwright's
driver over a pipe (no port is opened) with the system browser; every request that
is not ``file://`` is aborted and fails the test. Without Chromium these tests skip,
and with ``CI=true`` they fail (``bash scripts/ci-chromium.sh`` installs it).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests._cli import akit_process
from tests.reports._evidence import HOSTILE_NAME, ROOT, make_hostile, suite_json

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]


def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        problem = "Debian's chromium is not installed (bash scripts/ci-chromium.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI: {problem}", pytrace=False)
        pytest.skip(problem)
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless system Chromium; Playwright downloads no browser of its own."""
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


class Visit:
    """One page opened from ``file://``, with everything it logged and asked for."""

    def __init__(self, browser: Any, path: Path, *, width: int = 1280) -> None:
        self.console: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, offline=True
        )
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.route("**/*", self._route)
        self.page.goto(path.as_uri(), wait_until="load")

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.console.append(f"{message.type}: {message.text}")

    def _route(self, route: Any) -> None:
        url = route.request.url
        self.requests.append(url)
        if url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    def assert_clean(self, path: Path) -> None:
        assert self.console == []
        assert self.errors == []
        assert self.requests == [path.as_uri()]

    def texts(self, selector: str) -> list[str]:
        found: list[str] = self.page.eval_on_selector_all(
            selector, "nodes => nodes.map(n => n.textContent.trim())"
        )
        return found

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def pages(
    example_suite: Path, worse_suite: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path]:
    """Every kind of page, made by ``akit report`` as a user would."""
    root = tmp_path_factory.mktemp("pages")
    hostile = root / "hostile-suite"
    shutil.copytree(example_suite, hostile)
    make_hostile(hostile)
    record = example_suite / "runs" / "answer" / "002.record.json"
    # Two suites that share no workflow, shown in one report.
    halves = []
    for half, keep in (("first", {"answer"}), ("second", {"summarize", "triage"})):
        folder = root / half
        shutil.copytree(example_suite, folder)
        suite = suite_json(folder)
        suite["workflows"] = [w for w in suite["workflows"] if w["name"] in keep]
        (folder / "suite.json").write_text(json.dumps(suite), "utf-8")
        halves.append(str(folder))
    made = {
        "overview": ("report", str(example_suite)),
        "transcripts": (
            "report",
            str(example_suite),
            "--transcripts",
            str(example_suite / "transcripts"),
        ),
        "record": ("report", str(record)),
        "compare": ("report", "compare", str(example_suite), str(worse_suite)),
        "hostile": ("report", str(hostile)),
        "suites": ("report", *halves),
    }
    found = {}
    for kind, args in made.items():
        page = root / f"{kind}.html"
        # a real process: Playwright's sync API already runs an event loop here
        done = akit_process(*args, "--html", str(page), cwd=ROOT)
        assert done.returncode in (0, 8), done.stderr
        found[kind] = page
    return found


@pytest.mark.parametrize(
    "kind", ["overview", "transcripts", "record", "compare", "hostile", "suites"]
)
def test_every_page_renders_offline_without_errors(
    browser: Any, pages: dict[str, Path], kind: str, tmp_path: Path
) -> None:
    visit = Visit(browser, pages[kind])
    try:
        visit.assert_clean(pages[kind])
        assert visit.page.evaluate("document.scripts.length") == 0
        assert visit.texts("h1") != []
        shot = tmp_path / f"{kind}.png"
        visit.page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        banner = visit.texts("#sensitive-banner")
        assert bool(banner) == (kind == "transcripts")
        # Every chart is an inline SVG with a title for screen readers.
        titles = visit.page.eval_on_selector_all(
            "svg.chart", "nodes => nodes.map(n => n.querySelector('title').textContent)"
        )
        assert titles
        assert all(titles)
    finally:
        visit.close()


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def test_the_overview_shows_the_numbers_of_suite_json(
    browser: Any, pages: dict[str, Path], example_suite: Path
) -> None:
    suite = suite_json(example_suite)
    visit = Visit(browser, pages["overview"])
    try:
        shown = visit.page.eval_on_selector_all(
            "tr[data-workflow]",
            """rows => rows.map(row => Object.fromEntries(
                [["name", row.querySelector("th").textContent.trim()],
                 ...[...row.querySelectorAll("[data-check]")].map(
                    cell => [cell.dataset.check, cell.textContent.trim()])]))""",
        )
        expected = [
            {
                "name": w["name"],
                "pass-rate": _pct(w["pass_rate"]),
                "interval": f"{_pct(w['pass_rate_interval']['low'])} – "
                f"{_pct(w['pass_rate_interval']['high'])}",
                "wf-passed": str(w["passed"]),
                "wf-failed": str(w["failed"]),
                "wf-errored": str(w["errored"]),
                "wf-unavailable": str(w["unavailable"]),
                "range": "–"
                if not (w["errored"] or w["unavailable"])
                else f"{_pct(w['pass_rate_range']['low'])} – "
                f"{_pct(w['pass_rate_range']['high'])}",
            }
            for w in suite["workflows"]
        ]
        assert shown == expected
        totals = suite["totals"]
        for check, value in [
            ("runs-planned", totals["runs_planned"]),
            ("runs-finished", totals["runs_finished"]),
            ("passed", totals["passed"]),
            ("failed", totals["failed"]),
            ("errored", totals["errored"]),
            ("unavailable", totals["unavailable"]),
            ("runs-lost", totals["runs_lost"]),
            ("model-requests", totals["model_requests"]),
            ("tool-calls", totals["tool_calls"]),
            ("exit-code", suite["exit_code"]),
        ]:
            assert visit.texts(f'[data-check="{check}"]') == [str(value)], check
        tokens = f"{totals['input_tokens']} in, {totals['output_tokens']} out"
        assert visit.texts('[data-check="tokens"]') == [tokens]
        runs = sum(len(w["runs"]) for w in suite["workflows"])
        assert len(visit.texts("section.run")) == runs
    finally:
        visit.close()


def test_the_comparison_shows_both_suites_and_flags_only_the_regression(
    browser: Any, pages: dict[str, Path], example_suite: Path, worse_suite: Path
) -> None:
    base = {w["name"]: w for w in suite_json(example_suite)["workflows"]}
    cand = {w["name"]: w for w in suite_json(worse_suite)["workflows"]}
    visit = Visit(browser, pages["compare"])
    try:
        names = visit.texts("tr[data-workflow] th")
        assert names == sorted(base)

        def side(w: dict[str, Any]) -> str:
            judged = w["passed"] + w["failed"]
            return f"{_pct(w['pass_rate'])} ({w['passed']}/{judged})"

        assert visit.texts('[data-check="baseline-rate"]') == [
            side(base[n]) for n in names
        ]
        assert visit.texts('[data-check="candidate-rate"]') == [
            side(cand[n]) for n in names
        ]
        flagged = visit.texts('[data-check="regressed"]')
        assert [n for n, f in zip(names, flagged, strict=True) if f != "no"] == [
            "triage"
        ]
        assert visit.texts('[data-check="verdict"]') == [
            "✘ 1 workflow(s) regressed: triage"
        ]
    finally:
        visit.close()


def test_a_hostile_record_renders_as_text_and_keeps_the_layout(
    browser: Any, pages: dict[str, Path]
) -> None:
    for width in (1280, 800):
        visit = Visit(browser, pages["hostile"], width=width)
        try:
            visit.assert_clean(pages["hostile"])
            assert visit.page.evaluate("document.scripts.length") == 0
            assert visit.page.evaluate("document.images.length") == 0
            assert HOSTILE_NAME in visit.texts("tr[data-workflow] th a")
            overflow = visit.page.evaluate(
                "document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0
        finally:
            visit.close()


def test_print_hides_the_navigation(browser: Any, pages: dict[str, Path]) -> None:
    visit = Visit(browser, pages["overview"])
    try:
        visit.page.emulate_media(media="print")
        display = visit.page.eval_on_selector(
            "nav", "node => getComputedStyle(node).display"
        )
        assert display == "none"
        assert visit.page.pdf()[:4] == b"%PDF"
    finally:
        visit.close()


def test_a_run_shows_the_operations_of_its_record_in_order(
    browser: Any, pages: dict[str, Path], example_suite: Path
) -> None:
    suite = suite_json(example_suite)
    triage = next(w for w in suite["workflows"] if w["name"] == "triage")
    index = suite["workflows"].index(triage) + 1
    record = json.loads(
        (example_suite / triage["runs"][0]["record"]).read_text("utf-8")
    )
    expected = [
        f"#{e['number']} model request"
        if e["kind"] == "model_request"
        else f"#{e['number']} tool call {e['tool']}"
        for e in record["timeline"]["entries"]
    ]
    visit = Visit(browser, pages["overview"])
    try:
        steps = visit.texts(f"#run-{index}-1 table.timeline tbody th")
        assert [step for step in steps if step.startswith("#")] == expected
        assert steps[-3:] == ["end", "cleanup", "verification"]
    finally:
        visit.close()
