"""A mutation sample is seeded and extensible; the report scores it over its draw."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from artemiskit._common._statistics import wilson_interval

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_draw_is_seeded_per_module_and_a_larger_one_extends_it() -> None:
    sample = _script("mutation_sample")
    names = [f"m.x_f__mutmut_{i}" for i in range(1, 201)]
    first = sample.draw(names, 30, 0, 7, "a.py")
    assert len(first) == len(set(first)) == 30
    assert set(first) <= set(names)
    assert sample.draw(list(reversed(names)), 30, 0, 7, "a.py") == first
    assert sample.draw(names, 30, 0, 8, "a.py") != first
    assert sample.draw(names, 30, 0, 7, "b.py") != first
    assert set(first) < set(sample.draw(names, 60, 0, 7, "a.py"))
    # a module at most --whole-up-to (or --sample) mutants large is run whole
    assert sample.draw(names, 30, 200, 7, "a.py") == sorted(names)
    assert sample.draw(names[:30], 30, 0, 7, "a.py") == sorted(names[:30])


def test_the_report_scores_a_sample_over_its_draw_with_its_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _script("mutation_report")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mutmut]\nonly_mutate = ["pkg/big.py", "pkg/small.py", "pkg/new.py"]\n'
    )
    meta = tmp_path / "mutants" / "pkg"
    meta.mkdir(parents=True)
    big: dict[str, int | None] = {
        f"pkg.big.x_f__mutmut_{i}": None for i in range(1, 101)
    }
    drawn = sorted(big)[:20]
    for name in drawn[:17]:
        big[name] = 1  # killed
    big[drawn[17]] = 0  # survived
    big[drawn[18]] = 0  # survived, named as equivalent
    big[sorted(big)[50]] = 0  # not drawn: not counted
    small = {"pkg.small.x_g__mutmut_1": 1, "pkg.small.x_g__mutmut_2": 33}
    for name, codes in (("big", big), ("small", small)):
        (meta / f"{name}.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    sample = {"pkg/big.py": {"mutants": 100, "sample": drawn}}
    (tmp_path / "mutants" / "mutation-sample.json").write_text(
        json.dumps({"modules": sample})
    )
    equivalents = tmp_path / "equivalents.txt"
    equivalents.write_text(f"# comment\n{drawn[18]}: never read\n")
    monkeypatch.setattr(report, "ROOT", tmp_path)
    monkeypatch.setattr(report, "EQUIVALENTS", equivalents)
    monkeypatch.setattr(report, "SAMPLE", tmp_path / "mutants" / "mutation-sample.json")
    assert report.main() == 0
    cells = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith(("| `", "| **"))
    ]
    rows = {row[0]: row[1:] for row in cells}
    interval = wilson_interval(17, 18)
    assert interval is not None
    assert rows["`pkg/big.py`"] == [
        "100",
        "sample of 20",
        "1",
        "17",
        "1",
        "1",
        "0",
        "94.4%",
        f"{100 * interval.low:.1f}% to {100 * interval.high:.1f}%",
    ]
    assert rows["`pkg/small.py`"] == ["2", "all", "0", "1", "0", "0", "1", "50.0%", ""]
    assert rows["`pkg/new.py`"][0] == "not generated"
    assert rows["**all checked**"][:2] == ["102", "pooled"]
