"""The report pages in a real browser: Debian's Chromium, headless, from ``file://``.

Each kind of page (suite, with and without transcripts, a single record, several
suites, a comparison, a hostile suite) must render with no console error, no page
error, no dialog and no request other than the file itself. The viewer's views
(Runs, Causes, Units, a run) are driven as a user would: filters, clicks, deep
links, the keyboard, a reload; the numbers they show must be those of
``suite.json``; with JavaScript off the overview still holds them. Screenshots of
every view go to ``$ARTEMISKIT_ARTIFACTS`` (tests/reports/_browser.py).
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from artemiskit.suites import cause_text
from tests._cli import akit_process
from tests.reports._browser import Visit, artifacts_folder, chromium_browser
from tests.reports._evidence import (
    HOSTILE_NAME,
    HOSTILE_REQUIREMENT,
    ROOT,
    make_hostile,
    suite_json,
)

# Making every page takes seven akit processes; on a busy 2-core machine the
# first test (which builds them) needs more than the default 120 s.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

REPORT_KINDS = ["overview", "transcripts", "record", "hostile", "suites"]
#: A second hostile workflow name: math text, a closing style tag, markup.
MATH_NAME = "$x^2$ \\frac{1}{2} </style><b>bold</b> $$"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless system Chromium; Playwright downloads no browser of its own."""
    yield from chromium_browser()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go (``$ARTEMISKIT_ARTIFACTS``, else a temporary folder)."""
    return artifacts_folder(tmp_path_factory)


def _rename(folder: Path, index: int, name: str) -> None:
    """Give workflow ``index`` of a suite folder another name, records included."""
    suite = suite_json(folder)
    workflow = suite["workflows"][index]
    old = workflow["name"]
    workflow["name"] = name
    for unit in suite["units"]:
        if unit["workflow"] == old:
            unit["workflow"] = name
    for run in workflow["runs"]:
        path = folder / run["record"]
        record = json.loads(path.read_text("utf-8"))
        record["workflow"]["name"] = name
        path.write_text(json.dumps(record), "utf-8")
    (folder / "suite.json").write_text(json.dumps(suite), "utf-8")


@pytest.fixture(scope="module")
def pages(
    example_suite: Path, worse_suite: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path]:
    """Every kind of page, made by ``akit report`` as a user would."""
    root = tmp_path_factory.mktemp("pages")
    hostile = root / "hostile-suite"
    shutil.copytree(example_suite, hostile)
    make_hostile(hostile)
    _rename(hostile, 1, MATH_NAME)
    record = example_suite / "runs" / "answer" / "002.record.json"
    # Two suites that share no workflow, shown in one report.
    halves = []
    for half, keep in (("first", {"answer"}), ("second", {"summarize", "triage"})):
        folder = root / half
        shutil.copytree(example_suite, folder)
        suite = suite_json(folder)
        suite["workflows"] = [w for w in suite["workflows"] if w["name"] in keep]
        suite["units"] = [u for u in suite["units"] if u["workflow"] in keep]
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
        # The historical runner's report, from the same renderer (SPEC 17).
        "prompt-response": (
            "report",
            str(ROOT / "tests" / "prompt_response" / "golden" / "manifest.json"),
        ),
    }
    found = {}
    for kind, args in made.items():
        page = root / f"{kind}.html"
        # a real process: Playwright's sync API already runs an event loop here
        done = akit_process(*args, "--html", str(page), cwd=ROOT)
        assert done.returncode in (0, 8), done.stderr
        found[kind] = page
    return found


def _runs(suite: dict[str, Any]) -> list[dict[str, Any]]:
    return [run for workflow in suite["workflows"] for run in workflow["runs"]]


@pytest.mark.parametrize("kind", [*REPORT_KINDS, "compare", "prompt-response"])
def test_every_page_renders_offline_without_errors(
    browser: Any, pages: dict[str, Path], kind: str, artifacts: Path
) -> None:
    report = kind in REPORT_KINDS
    visit = Visit(browser, pages[kind], ready=report)
    try:
        visit.assert_clean()
        # The report inlines its run data and the viewer; a comparison has none.
        assert visit.page.evaluate("document.scripts.length") == (2 if report else 0)
        assert visit.page.evaluate("document.images.length") == 0
        assert visit.texts("h1") != []
        visit.shoot(artifacts, f"page-{kind}")
        banner = visit.texts("#sensitive-banner")
        assert bool(banner) == (kind in ("transcripts", "prompt-response"))
        # One look: every page has the shared style sheet's main column.
        width = "getComputedStyle(document.querySelector('main')).maxWidth"
        assert visit.page.evaluate(width) == "1216px"  # 76rem
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


def _overview_numbers(visit: Visit, suite: dict[str, Any]) -> None:
    """The overview's numbers are those of ``suite.json``."""
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
        ("status", f"{suite['status']} ({suite['reason']})"),
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
    # pass^k: every k of these few runs, as suite.json has it.
    hat = visit.texts('[data-check="pass-hat-k"]')
    assert hat == [
        _pct(value) for w in suite["workflows"] for value in w["pass_hat_k"].values()
    ]


def test_the_overview_shows_the_numbers_of_suite_json(
    browser: Any, pages: dict[str, Path], example_suite: Path
) -> None:
    visit = Visit(browser, pages["overview"], ready=True)
    try:
        _overview_numbers(visit, suite_json(example_suite))
        visit.assert_clean()
    finally:
        visit.close()


def test_without_javascript_the_overview_holds_every_number(
    browser: Any, pages: dict[str, Path], example_suite: Path, artifacts: Path
) -> None:
    visit = Visit(browser, pages["overview"], script=False)
    try:
        assert visit.page.evaluate("document.body.dataset.ready") is None
        assert visit.page.is_visible("#view-overview")
        assert visit.page.is_visible("#no-script")
        assert not visit.page.is_visible("#views")
        assert not visit.page.is_visible("#view-runs")
        _overview_numbers(visit, suite_json(example_suite))
        visit.shoot(artifacts, "view-overview-without-javascript")
        visit.assert_clean()
    finally:
        visit.close()


def _count(visit: Visit) -> str:
    return visit.texts("#runs-count")[0]


def test_the_runs_view_filters_sorts_and_searches_every_run(
    browser: Any, pages: dict[str, Path], example_suite: Path, artifacts: Path
) -> None:
    suite = suite_json(example_suite)
    runs = _runs(suite)
    visit = Visit(browser, pages["overview"], fragment="#runs", ready=True)
    page = visit.page
    try:
        assert visit.texts("#views a") == ["Overview", "Runs", "Causes", "Units", "Run"]
        assert _count(visit) == f"{len(runs)} of {len(runs)} runs"
        ids = [run["run_id"][:8] for run in runs]
        assert visit.texts(".runrow a") == ids
        visit.shoot(artifacts, "view-runs")
        # Verdicts by name: the counts are those of suite.json.
        verdicts = Counter(run["verdict"] for run in runs)
        for verdict in ("passed", "failed", "errored", "unavailable"):
            page.select_option("#filter-verdict", verdict)
            assert _count(visit) == f"{verdicts[verdict]} of {len(runs)} runs"
            assert set(visit.texts(".runrow span.verdict-" + verdict)) <= {verdict}
        assert visit.fragment() == "#runs?verdict=unavailable"
        page.select_option("#filter-verdict", "")
        answer = next(w for w in suite["workflows"] if w["name"] == "answer")
        page.select_option("#filter-workflow", "answer")
        assert _count(visit) == f"{len(answer['runs'])} of {len(runs)} runs"
        page.select_option("#filter-tool", "write_file")
        assert _count(visit) == f"{len(answer['runs'])} of {len(runs)} runs"
        page.select_option("#filter-workflow", "triage")
        assert _count(visit) == f"0 of {len(runs)} runs"
        page.click("#clear-filters")
        # Sorting by duration, longest first.
        page.select_option("#sort", "duration")
        durations = [int(t) for t in visit.texts(".runrow span.num:nth-of-type(8)")]
        assert durations == sorted((r["duration_ms"] for r in runs), reverse=True)
        page.select_option("#sort-dir", "asc")
        durations = [int(t) for t in visit.texts(".runrow span.num:nth-of-type(8)")]
        assert durations == sorted(r["duration_ms"] for r in runs)
        # Search by (part of) a run id.
        page.fill("#search", runs[3]["run_id"][2:12])
        assert visit.texts(".runrow a") == [runs[3]["run_id"][:8]]
        assert _count(visit) == f"1 of {len(runs)} runs"
        visit.assert_clean()
    finally:
        visit.close()


def test_a_deep_link_to_a_failed_run_opens_its_view(
    browser: Any, pages: dict[str, Path], example_suite: Path, artifacts: Path
) -> None:
    suite = suite_json(example_suite)
    failed = next(run for run in _runs(suite) if run["verdict"] == "failed")
    record = json.loads((example_suite / failed["record"]).read_text("utf-8"))
    visit = Visit(
        browser, pages["overview"], fragment=f"#run/{failed['run_id']}", ready=True
    )
    try:
        assert visit.page.is_visible("#view-run")
        assert not visit.page.is_visible("#view-overview")
        assert visit.texts("#run-title") == [f"Run {failed['run_id']}"]
        facts = dict(
            zip(
                visit.texts("#run-body dl.facts >> nth=0 >> dt"),
                visit.texts("#run-body dl.facts >> nth=0 >> dd"),
                strict=True,
            )
        )
        assert facts["run id"] == failed["run_id"]
        assert facts["verdict"] == "failed"
        assert facts["why"] == cause_text(failed["why"])
        assert facts["exit code"] == str(failed["exit_code"])
        headings = visit.texts("#run-body h3")
        assert headings[:2] == ["Timeline", "Outcomes"]
        steps = visit.texts("#run-body table.timeline tbody th")
        expected = [
            f"#{e['number']} model request"
            if e["kind"] == "model_request"
            else f"#{e['number']} tool call {e['tool']}"
            for e in record["timeline"]["entries"]
        ]
        assert [step for step in steps if step.startswith("#")] == expected
        assert steps[-3:] == ["end", "cleanup", "verification"]
        requirements = visit.texts("#run-body table.requirements tbody td:first-child")
        assert requirements == [
            q["id"] for q in record["task_verification"]["requirements"]
        ]
        visit.shoot(artifacts, "view-run")
        visit.assert_clean()
    finally:
        visit.close()


def test_clicks_the_keyboard_and_a_reload_keep_the_view(
    browser: Any, pages: dict[str, Path], example_suite: Path
) -> None:
    runs = _runs(suite_json(example_suite))
    visit = Visit(browser, pages["overview"], ready=True)
    page = visit.page
    try:
        page.click("#views a[data-view=runs]")
        page.select_option("#filter-workflow", "answer")
        page.select_option("#sort", "duration")
        shown = visit.fragment()
        assert shown == "#runs?workflow=answer&sort=duration&dir=desc"
        page.reload(wait_until="load")
        visit.wait_ready()
        assert visit.fragment() == shown
        assert page.input_value("#filter-workflow") == "answer"
        assert page.input_value("#sort") == "duration"
        order = visit.texts(".runrow a")
        # The keyboard: down twice, up once, Enter opens the second row's run.
        page.focus("#runlist")
        for key in ("ArrowDown", "ArrowDown", "ArrowUp", "Enter"):
            page.keyboard.press(key)
        page.wait_for_selector("#view-run:not([hidden])")
        second = next(r for r in runs if r["run_id"].startswith(order[1]))
        assert visit.fragment() == f"#run/{second['run_id']}"
        # Back to the runs: the filters are still there.
        page.click("text=← back to the runs")
        page.wait_for_selector("#view-runs:not([hidden])")
        assert visit.fragment() == shown
        # A click on a row (not its link) opens that run too.
        page.click(".runrow >> nth=0 >> span:nth-child(2)")
        page.wait_for_selector("#view-run:not([hidden])")
        first = next(r for r in runs if r["run_id"].startswith(order[0]))
        assert visit.texts("#run-title") == [f"Run {first['run_id']}"]
        page.go_back()
        page.wait_for_selector("#view-runs:not([hidden])")
        assert visit.fragment() == shown
        visit.assert_clean()
    finally:
        visit.close()


def test_causes_group_the_runs_that_did_not_pass_and_lead_to_them(
    browser: Any, pages: dict[str, Path], example_suite: Path, artifacts: Path
) -> None:
    suite = suite_json(example_suite)
    causes = Counter(
        cause_text(run["why"]) for run in _runs(suite) if run["verdict"] != "passed"
    )
    visit = Visit(browser, pages["overview"], fragment="#causes", ready=True)
    page = visit.page
    try:
        rows = visit.texts("#causes-body tr[data-check=cause-group] th")
        assert rows == [text for text, _ in causes.most_common()]
        counts = visit.texts("#causes-body tr[data-check=cause-group] td.num")
        assert counts == [str(n) for _, n in causes.most_common()]
        visit.shoot(artifacts, "view-causes")
        text, count = causes.most_common()[0]
        page.click(f"#causes-body a >> text=show {count} runs")
        page.wait_for_selector("#view-runs:not([hidden])")
        assert _count(visit) == f"{count} of {len(_runs(suite))} runs"
        assert set(visit.texts(".runrow span:nth-child(7)")) == {text}
        visit.assert_clean()
    finally:
        visit.close()


def test_the_unit_matrix_holds_the_units_of_suite_json(
    browser: Any, pages: dict[str, Path], example_suite: Path, artifacts: Path
) -> None:
    suite = suite_json(example_suite)
    visit = Visit(browser, pages["overview"], fragment="#units", ready=True)
    page = visit.page
    try:
        assert visit.texts("#units-body h3") == [
            f"Workflow {w['name']}" for w in suite["workflows"]
        ]
        cells = visit.texts("#units-body td[data-check=unit]")
        expected = []
        for unit in suite["units"]:
            interval = unit["pass_rate_interval"]
            judged = unit["passed"] + unit["failed"]
            expected.append(
                f"{_pct(unit['pass_rate'])} [{_pct(interval['low'])}–"
                f"{_pct(interval['high'])}] {unit['passed']}/{judged}"
            )
        assert cells == expected
        visit.shoot(artifacts, "view-units")
        page.click("#units-body td[data-check=unit] a >> nth=0")
        page.wait_for_selector("#view-runs:not([hidden])")
        first = suite["units"][0]
        assert _count(visit) == f"{first['runs']} of {len(_runs(suite))} runs"
        visit.assert_clean()
    finally:
        visit.close()


def test_transcripts_show_only_under_the_banner(
    browser: Any, pages: dict[str, Path], example_suite: Path
) -> None:
    run = _runs(suite_json(example_suite))[0]
    for kind, shown in (("overview", False), ("transcripts", True)):
        visit = Visit(
            browser, pages[kind], fragment=f"#run/{run['run_id']}", ready=True
        )
        try:
            headings = visit.texts("#run-body h3")
            assert ("Transcript" in headings) == shown
            banners = visit.texts("#run-body .banner")
            assert bool(banners) == shown
        finally:
            visit.close()


def test_a_comparison_lists_regressions_first(
    browser: Any, pages: dict[str, Path], example_suite: Path, worse_suite: Path
) -> None:
    base = {w["name"]: w for w in suite_json(example_suite)["workflows"]}
    cand = {w["name"]: w for w in suite_json(worse_suite)["workflows"]}
    visit = Visit(browser, pages["compare"])
    try:
        names = visit.texts("tr[data-workflow] th")
        assert sorted(names) == sorted(base)
        assert names[0] == "triage"

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
        visit.assert_clean()
    finally:
        visit.close()


def test_hostile_names_render_as_text_in_every_view(
    browser: Any, pages: dict[str, Path]
) -> None:
    for width in (1280, 800):
        visit = Visit(browser, pages["hostile"], width=width, ready=True)
        page = visit.page
        try:
            # Nothing from the evidence became an element or ran.
            counts = (
                "['script', 'img', 'b', 'style']"
                ".map(t => document.getElementsByTagName(t).length)"
            )
            assert page.evaluate(counts) == [2, 0, 0, 1]
            assert HOSTILE_NAME in visit.texts("tr[data-workflow] th a")
            assert MATH_NAME in visit.texts("tr[data-workflow] th a")
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0
            for name in (HOSTILE_NAME, MATH_NAME):
                page.evaluate(
                    "fragment => { location.hash = fragment; }",
                    "#runs?" + urlencode({"workflow": name}),
                )
                page.wait_for_selector("#view-runs:not([hidden])")
                assert set(visit.texts(".runrow span:nth-child(2)")) == {name}
                assert page.input_value("#filter-workflow") == name
            page.evaluate("location.hash = '#units'")
            assert f"Workflow {HOSTILE_NAME}" in visit.texts("#units-body h3")
            page.evaluate("location.hash = '#runs'")
            page.select_option("#filter-workflow", HOSTILE_NAME)
            page.click(".runrow a >> nth=0")
            page.wait_for_selector("#view-run:not([hidden])")
            body = visit.texts("#run-body dd")
            assert HOSTILE_NAME in body
            assert HOSTILE_REQUIREMENT in visit.texts("#run-body td, #run-body th")
            assert page.evaluate(counts) == [2, 0, 0, 1]
            visit.assert_clean()
        finally:
            visit.close()


def test_print_hides_the_navigation(browser: Any, pages: dict[str, Path]) -> None:
    visit = Visit(browser, pages["overview"], ready=True)
    try:
        visit.page.emulate_media(media="print")
        display = visit.page.eval_on_selector_all(
            "nav", "nodes => nodes.map(node => getComputedStyle(node).display)"
        )
        assert display == ["none", "none"]
        assert visit.page.pdf()[:4] == b"%PDF"
    finally:
        visit.close()
