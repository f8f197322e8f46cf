"""Local storage of manifests and baselines (TypeScript ``storage/local.ts``).

Manifests live at ``<base>/<project>/<run_id>.json`` (2-space JSON, no trailing
newline); baselines in ``<base>/.artemis/baselines.json``. Files are written whole
(temporary file, fsync, rename) with mode 0600 in folders of mode 0700, because a
manifest holds prompts and responses. Files are read without blocking (a FIFO or a
device is refused, never waited on), as strict JSON (``NaN``, ``Infinity`` and
numbers beyond a float are refused) and checked before use, so a hand-edited file
gives a message naming it, never a crash.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import attrs

from artemiskit._common._atomic import write_atomically
from artemiskit._common._json import StrictJsonError, load_strict_json
from artemiskit._common._reading import read_text_file_now
from artemiskit._errors import ArtemisError, FileAccessError
from artemiskit.prompt_response._kinds import describe_document, is_manifest
from artemiskit.prompt_response._manifest import (
    RunManifest,
    manifest_from_dict,
    manifest_to_json,
)

__all__ = [
    "Baseline",
    "LocalStorage",
    "RunSummary",
    "is_manifest_file",
    "read_manifest_file",
    "write_private_file",
]

_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_MAX_FILE_BYTES = 64 * 1024 * 1024


def _safe_segment(name: str) -> bool:
    """Whether ``name`` is one plain folder name inside the store."""
    return (
        0 < len(name.encode("utf-8", "surrogatepass")) <= 255
        and not name.startswith(".")
        and not any(char in name for char in "/\\\0")
        and name.isprintable()
    )


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (mode 0600, its folder 0700).

    Raises:
        OSError: The folder or the file cannot be written.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        write_atomically(path, text.encode("utf-8"), mode=0o600)
    except FileAccessError as exc:
        cause = exc.__cause__
        raise cause if isinstance(cause, OSError) else OSError(exc.message) from None


def write_private_file(path: Path, text: str, *, what: str) -> None:
    """Write ``text`` whole to ``path`` (mode 0600, folders 0700), replacing it.

    Raises:
        FileAccessError: The file cannot be written (exit 1).
    """
    try:
        _write_whole(path, text)
    except OSError as exc:
        raise FileAccessError(
            f"{path}: cannot write the {what} ({exc.strerror})",
            reason="persistence_failed",
        ) from None


def _read_json(path: Path) -> Any:
    """The strict JSON of a regular file (`load_strict_json`: the evidence rules).

    Raises:
        FileAccessError: The file is missing, unreadable or not a regular file
            (opened without blocking: a FIFO is refused, not waited on).
        ValueError: It is too large or not UTF-8 (``FileAccessError`` with reason
            ``file_invalid``), or not strict JSON (`StrictJsonError`: ``NaN``,
            numbers beyond a float, integers beyond 64 bits, nesting deeper than
            256; a lone surrogate escape is kept, as a model may answer one).
    """
    text = read_text_file_now(
        path,
        what="store",
        limit=_MAX_FILE_BYTES,
        invalid=lambda problem: FileAccessError(problem.message, reason="file_invalid"),
    )
    return load_strict_json(text, lone_surrogates=True)


def is_manifest_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file holding a prompt-response run manifest.

    The file is read as `read_manifest_file` reads it (without blocking, at most
    64 MiB, strict JSON); a file that cannot be read that way is not a manifest,
    and a reader of another kind of evidence says what is wrong with it.

    Args:
        path: The file to look at.

    Returns:
        ``True`` when the file parses as strict JSON shaped like a manifest.
    """
    try:
        data = _read_json(Path(path))
    except (FileAccessError, ValueError):
        return False
    return is_manifest(data)


def read_manifest_file(path: str | os.PathLike[str]) -> RunManifest:
    """Read a manifest file.

    Raises:
        FileAccessError: The file cannot be read (exit 1).
        ValueError: The file is not a prompt-response manifest; the message says
            what it is when it is another ArtemisKit file.
    """
    try:
        data = _read_json(Path(path))
    except FileAccessError as exc:
        if exc.reason == "file_invalid":
            raise ValueError(f"{os.fspath(path)}: {exc.message}") from None
        raise FileAccessError(f"{os.fspath(path)}: cannot read the file") from None
    except StrictJsonError as exc:
        raise ValueError(f"{os.fspath(path)}: {exc.message}") from None
    if not is_manifest(data):
        kind = describe_document(data) or "not a prompt-response run manifest"
        raise ValueError(f"{os.fspath(path)} is {kind}")
    try:
        manifest = manifest_from_dict(data)
    except ValueError as exc:
        raise ValueError(f"{os.fspath(path)}: {exc}") from None
    if not _RUN_ID.fullmatch(manifest.run_id):
        raise ValueError(
            f"{os.fspath(path)}: runId is not a run id (1 to 64 letters, digits, "
            "'-' or '_')"
        )
    return manifest


@attrs.frozen(kw_only=True)
class RunSummary:
    """One stored run as ``history`` lists it."""

    run_id: str
    scenario: str
    success_rate: float
    created_at: str
    type: str | None = None
    estimated_cost_usd: float | None = None
    project: str | None = None


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _summary(data: Any, project: str) -> RunSummary | None:
    """One history line of a stored file, or ``None`` for anything malformed."""
    if not is_manifest(data):
        return None
    config, metrics = data["config"], data["metrics"]
    kind = data.get("type")
    rate = _number(metrics.get("defense_rate" if kind == "redteam" else "success_rate"))
    cost = metrics.get("cost")
    cost = cost if isinstance(cost, dict) else {}
    scenario, started = config.get("scenario"), data.get("start_time")
    if not isinstance(scenario, str) or not isinstance(started, str):
        return None
    return RunSummary(
        run_id=data["run_id"],
        scenario=scenario,
        success_rate=rate or 0.0,
        created_at=started,
        type=kind if isinstance(kind, str) else None,
        estimated_cost_usd=_number(
            cost.get("total_usd", cost.get("estimated_total_usd"))
        ),
        project=project,
    )


@attrs.frozen(kw_only=True)
class Baseline:
    """The baseline of one scenario (keyed by scenario name)."""

    scenario: str
    run_id: str
    created_at: str
    success_rate: float
    median_latency_ms: float
    total_tokens: int
    passed_cases: int
    failed_cases: int
    total_cases: int
    tag: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The entry as ``baselines.json`` stores it (camelCase)."""
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "runId": self.run_id,
            "createdAt": self.created_at,
            "metrics": {
                "successRate": self.success_rate,
                "medianLatencyMs": self.median_latency_ms,
                "totalTokens": self.total_tokens,
                "passedCases": self.passed_cases,
                "failedCases": self.failed_cases,
                "totalCases": self.total_cases,
            },
        }
        if self.tag is not None:
            out["tag"] = self.tag
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Baseline:
        """Read an entry of ``baselines.json``.

        Raises:
            ValueError: The entry is malformed; the message says which field.
        """
        if not isinstance(data, dict) or not isinstance(data.get("metrics"), dict):
            raise ValueError("must be an object with metrics")
        metrics = data["metrics"]
        texts: dict[str, str] = {}
        for key in ("scenario", "runId", "createdAt"):
            value = data.get(key)
            if not isinstance(value, str):
                raise ValueError(f"{key} must be a string")
            texts[key] = value
        tag = data.get("tag")
        if tag is not None and not isinstance(tag, str):
            raise ValueError("tag must be a string")
        numbers: dict[str, float] = {}
        for key in (
            "successRate",
            "medianLatencyMs",
            "totalTokens",
            "passedCases",
            "failedCases",
            "totalCases",
        ):
            value = _number(metrics.get(key))
            if value is None or not math.isfinite(value):
                raise ValueError(f"metrics.{key} must be a number")
            numbers[key] = value
        return cls(
            scenario=texts["scenario"],
            run_id=texts["runId"],
            created_at=texts["createdAt"],
            success_rate=numbers["successRate"],
            median_latency_ms=numbers["medianLatencyMs"],
            total_tokens=int(numbers["totalTokens"]),
            passed_cases=int(numbers["passedCases"]),
            failed_cases=int(numbers["failedCases"]),
            total_cases=int(numbers["totalCases"]),
            tag=tag,
        )


@attrs.frozen
class LocalStorage:
    """Manifests and baselines under one base folder.

    Args:
        base_path: The storage root (``ARTEMIS_STORAGE_PATH`` or
            ``./artemis-runs`` by default in the CLI).
    """

    base_path: Path = attrs.field(converter=Path)

    def save(self, manifest: RunManifest) -> Path:
        """Write ``manifest`` to ``<base>/<project>/<run_id>.json``; return the path.

        Raises:
            FileAccessError: The file cannot be written (exit 1).
        """
        if not _RUN_ID.fullmatch(manifest.run_id):
            raise FileAccessError("the run id is not a safe file name")
        path = self.project_folder(manifest.project) / f"{manifest.run_id}.json"
        try:
            _write_whole(path, manifest_to_json(manifest))
        except OSError as exc:
            raise FileAccessError(
                f"{path}: cannot save the manifest ({exc.strerror})",
                reason="persistence_failed",
            ) from None
        return path

    def project_folder(self, project: str) -> Path:
        """The folder of ``project``'s manifests (not created).

        Raises:
            FileAccessError: ``project`` is not one plain folder name (exit 1).
        """
        if not _safe_segment(project):
            raise FileAccessError(
                "the project name must be one folder name (no '/', '\\', NUL or "
                "leading '.')",
                reason="unsafe_project",
            )
        return self.base_path / project

    def _projects(self) -> list[Path]:
        if not self.base_path.is_dir():
            return []
        return sorted(
            p
            for p in self.base_path.iterdir()
            if p.is_dir() and not p.name.startswith(".")
        )

    def find(self, run_id: str) -> Path | None:
        """The file of run ``run_id`` in any project, if stored."""
        if not _RUN_ID.fullmatch(run_id):
            return None
        for project in self._projects():
            candidate = project / f"{run_id}.json"
            if candidate.is_file():
                return candidate
        return None

    def load(self, run_id: str) -> RunManifest:
        """Load a stored run.

        Raises:
            FileAccessError: No run has this id (exit 1).
            ValueError: The stored file is not a plain run manifest.
        """
        path = self.find(run_id)
        if path is None:
            raise FileAccessError(f"run {run_id} not found in {self.base_path}")
        manifest = read_manifest_file(path)
        if manifest.type is not None:
            raise ValueError(f"run {run_id} is a {manifest.type} run, not a plain run")
        return manifest

    def runs(
        self,
        *,
        project: str | None = None,
        scenario: str | None = None,
        limit: int | None = None,
    ) -> list[RunSummary]:
        """Stored runs, newest first; unreadable and foreign files are skipped."""
        found: list[RunSummary] = []
        for folder in self._projects():
            if project is not None and folder.name != project:
                continue
            for path in folder.glob("[!.]*.json"):
                try:
                    data = _read_json(path)
                except (ArtemisError, ValueError):
                    continue
                summary = _summary(data, folder.name)
                if summary is None:
                    continue
                if scenario is not None and summary.scenario != scenario:
                    continue
                found.append(summary)
        found.sort(key=lambda item: item.created_at, reverse=True)
        return found[:limit] if limit is not None else found

    @property
    def baselines_path(self) -> Path:
        """``<base>/.artemis/baselines.json``."""
        return self.base_path / ".artemis" / "baselines.json"

    def _baselines(self) -> dict[str, Any]:
        if not os.path.lexists(self.baselines_path):
            return {}
        try:
            data = _read_json(self.baselines_path)
        except (ArtemisError, ValueError) as exc:
            why = exc.message if isinstance(exc, ArtemisError) else str(exc)
            raise FileAccessError(
                f"{self.baselines_path}: unreadable baselines file ({why})"
            ) from None
        entries = data.get("baselines") if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            raise FileAccessError(
                f"{self.baselines_path}: not a baselines file (no baselines object)"
            )
        return entries

    def _entry(self, scenario: str, data: Any) -> Baseline:
        try:
            return Baseline.from_dict(data)
        except ValueError as exc:
            raise FileAccessError(
                f"{self.baselines_path}: the baseline of {scenario!r}: {exc}"
            ) from None

    def _write_baselines(self, entries: dict[str, Any]) -> None:
        text = json.dumps({"version": "1.0", "baselines": entries}, indent=2)
        try:
            _write_whole(self.baselines_path, text)
        except OSError as exc:
            raise FileAccessError(
                f"{self.baselines_path}: cannot write ({exc.strerror})"
            ) from None

    def baselines(self) -> list[Baseline]:
        """Every baseline, newest first."""
        entries = self._baselines().items()
        items = [self._entry(name, entry) for name, entry in entries]
        return sorted(items, key=lambda b: b.created_at, reverse=True)

    def baseline(self, scenario: str) -> Baseline | None:
        """The baseline of ``scenario``, if set."""
        entry = self._baselines().get(scenario)
        return None if entry is None else self._entry(scenario, entry)

    def set_baseline(self, baseline: Baseline) -> None:
        """Set (or replace) the baseline of its scenario."""
        entries = self._baselines()
        entries[baseline.scenario] = baseline.to_dict()
        self._write_baselines(entries)

    def remove_baseline(self, scenario: str) -> bool:
        """Remove the baseline of ``scenario``; whether there was one."""
        entries = self._baselines()
        if scenario not in entries:
            return False
        del entries[scenario]
        self._write_baselines(entries)
        return True
