"""A quick run writes to a scratch folder, never to the tracked results (SPEC 10).

Nothing here measures anything: the destination is decided, and a bad one refused,
before the first benchmark starts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks._cli import ROOT, SCRATCH, TRACKED, main, output_paths
from benchmarks._report import render_markdown

TRACKED_JSON = ROOT / "benchmarks" / "results" / "latest.json"
TRACKED_PAGE = ROOT / "docs" / "performance.md"


def test_the_tracked_results_are_the_published_files() -> None:
    assert TRACKED == (TRACKED_JSON, TRACKED_PAGE)


def test_a_full_run_writes_the_tracked_files() -> None:
    assert output_paths(quick=False, output=None) == (TRACKED_JSON, TRACKED_PAGE)


def test_a_quick_run_writes_to_a_scratch_folder_git_ignores() -> None:
    json_path, page_path = output_paths(quick=True, output=None)
    assert (json_path, page_path) == (
        SCRATCH / "latest.json",
        SCRATCH / "performance.md",
    )
    assert not {json_path, page_path} & {TRACKED_JSON, TRACKED_PAGE}
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert f"{SCRATCH.relative_to(ROOT).parts[0]}/" in ignored


def test_a_quick_run_writes_to_the_folder_given(tmp_path: Path) -> None:
    assert output_paths(quick=True, output=tmp_path) == (
        tmp_path / "latest.json",
        tmp_path / "performance.md",
    )


@pytest.mark.parametrize(
    "folder",
    [
        ROOT / "docs",
        ROOT / "benchmarks" / "results",
        ROOT / "benchmarks" / ".." / "docs",
    ],
)
def test_a_quick_run_aimed_at_the_tracked_files_is_refused_before_measuring(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {path: path.read_bytes() for path in TRACKED}
    with pytest.raises(SystemExit) as exited:
        main(["--quick", "--skip-sandbox", "--skip-peers", "--output", str(folder)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--quick never writes the tracked results" in err
    assert "benchmarks: 1/5" not in err  # nothing was measured
    assert {path: path.read_bytes() for path in TRACKED} == before


def test_the_published_instructions_are_the_generated_ones() -> None:
    """The tracked page's introduction is what the generator writes today."""
    results = json.loads(TRACKED_JSON.read_text(encoding="utf-8"))
    generated = render_markdown(results).split("## Machine")[0]
    published = TRACKED_PAGE.read_text(encoding="utf-8").split("## Machine")[0]
    assert published == generated
    assert "build/benchmarks-quick/" in published
