"""Where a suite's files go: the one layout of records, transcripts and cassettes.

Every file a run leaves is named from its *stem* (`run_stem`): the record is
``runs/<stem>.record.json``, the transcript ``transcripts/<stem>.transcript.json``
and the cassette ``<cassettes>/<stem>.cassette.jsonl``, so a cassette sits at the
same relative path as its record under ``runs/``. A run's stem is its unit's
folder (`RunLayout`: ``<workflow>[/<case>][/<target>]``, levels without a
dataset or matrix omitted, SPEC 19) and its repetition.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from artemiskit._errors import FileAccessError
from artemiskit.records import record_to_dict

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from artemiskit.records import ExecutionRecord
    from artemiskit.suites._targets import SuiteTarget

__all__ = [
    "CASSETTE_SUFFIX",
    "RECORD_SUFFIX",
    "TRANSCRIPT_SUFFIX",
    "RunLayout",
    "check_output_dir",
    "safe_folders",
    "prepare_output_dir",
    "record_line",
    "run_stem",
]

RECORD_SUFFIX = ".record.json"
TRANSCRIPT_SUFFIX = ".transcript.json"
CASSETTE_SUFFIX = ".cassette.jsonl"

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}")


def record_line(record: ExecutionRecord) -> bytes:
    """A run's record file, validated: compact JSON and a newline.

    Compact, so the C encoder does it: an indented dump costs more than an
    instant run. A shipped run's worker encodes it (`ShippedResult`), so the
    suite's process only writes it.
    """
    text = json.dumps(record_to_dict(record), separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


def run_stem(folder: str, repetition: int) -> str:
    """The relative name of one run's files, without folder root or suffix."""
    return f"{folder}/{repetition:03d}"


def safe_folders(names: Iterable[str]) -> dict[str, str]:
    """A safe folder name per name, distinct even where case is ignored.

    A plain name is its own folder; another gets a slug and a short digest of
    the name (``openai:gpt-4.1`` becomes ``openai-gpt-4.1-<8 hex>``). A folder
    already taken (a plain name can look like another's slug and digest, or
    differ only in case) gets ``-2``, ``-3``, ... in the order given.
    """
    folders: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        if name in folders:
            continue
        folder = name
        if not _SAFE.fullmatch(name):
            slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-")[:60] or "w"
            suffix = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
            folder = f"{slug}-{suffix}"
        chosen, number = folder, 1
        while chosen.lower() in taken:
            number += 1
            chosen = f"{folder}-{number}"
        taken.add(chosen.lower())
        folders[name] = chosen
    return folders


class RunLayout:
    """Where each unit's runs leave their files: one rule for records and cassettes.

    A unit's folder is its workflow's, then its case's (for a workflow with
    cases), then its target's (when a workflow runs on several targets), each
    a `safe_folders` name.

    Args:
        units: Every (workflow, target) of the suite (`plan_targets`).
    """

    __slots__ = ("_cases", "_targets", "_workflows")

    def __init__(self, units: Sequence[SuiteTarget]) -> None:
        items = {unit.name: unit.item for unit in units}
        self._workflows = safe_folders(items)
        per_workflow: dict[str, int] = {}
        for unit in units:
            per_workflow[unit.name] = per_workflow.get(unit.name, 0) + 1
        # One target keeps the <target> level out of the layout; several add it.
        self._targets = (
            safe_folders(unit.target for unit in units)
            if any(count > 1 for count in per_workflow.values())
            else None
        )
        # Only a case whose folder is not its id is remembered.
        self._cases: dict[str, dict[str, str]] = {}
        for name, item in items.items():
            if item.cases is not None:
                folders = safe_folders(item.case_ids)
                self._cases[name] = {c: f for c, f in folders.items() if c != f}

    @property
    def layered(self) -> bool:
        """Whether the layout has the ``<target>`` level."""
        return self._targets is not None

    def stem(
        self, workflow: str, case: str | None, target: str, repetition: int
    ) -> str:
        """The stem of one run's files (`run_stem` of its unit's folder)."""
        folder = self._workflows[workflow]
        if case is not None:
            folder = f"{folder}/{self._cases.get(workflow, {}).get(case, case)}"
        if self._targets is not None:
            folder = f"{folder}/{self._targets[target]}"
        return run_stem(folder, repetition)


def _empty(folder: Path) -> bool:
    with os.scandir(folder) as entries:
        return next(entries, None) is None


def check_output_dir(output_dir: str | os.PathLike[str]) -> None:
    """Refuse an output folder `prepare_output_dir` would refuse, making nothing.

    A suite checks each of its folders (records, cassettes) before it makes
    any, so a refused one leaves no other behind.

    Raises:
        FileAccessError: It exists and is not an empty folder, cannot be
            examined (a folder above it or it refuses this user), or its
            nearest existing parent cannot take a new folder (exit 1).
    """
    path = Path(output_dir)
    try:
        found = os.lstat(path)
        empty = not stat.S_ISDIR(found.st_mode) or _empty(path)
    except FileNotFoundError:
        found, empty = None, True
    except OSError as exc:
        raise FileAccessError(
            f"cannot use output folder {os.fspath(output_dir)}: {exc.strerror}",
            reason="output_unwritable",
        ) from exc
    if found is not None and not stat.S_ISDIR(found.st_mode):  # a link too
        raise FileAccessError(
            f"output folder {os.fspath(output_dir)} is not a folder",
            reason="output_exists",
        )
    if not empty:
        raise FileAccessError(
            f"output folder {os.fspath(output_dir)} is not empty; a suite needs a "
            "new or empty folder",
            reason="output_exists",
        )
    if found is None:
        parent = path.absolute().parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not os.access(parent, os.W_OK | os.X_OK):
            raise FileAccessError(
                f"cannot create output folder {os.fspath(output_dir)}: "
                f"{os.strerror(errno.EACCES)}",
                reason="output_unwritable",
            )


def prepare_output_dir(output_dir: str | os.PathLike[str]) -> Path:
    """Make sure the output folder is new or empty (creating it if new).

    Raises:
        FileAccessError: `check_output_dir` refuses it, or it cannot be
            created (exit 1).
    """
    check_output_dir(output_dir)
    path = Path(output_dir)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(
            f"cannot create output folder {os.fspath(output_dir)}: {exc.strerror}",
            reason="output_unwritable",
        ) from exc
    if not os.access(path, os.W_OK | os.X_OK):
        raise FileAccessError(
            f"cannot write into output folder {os.fspath(output_dir)}",
            reason="output_unwritable",
        )
    return path
