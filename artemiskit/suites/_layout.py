"""Where a suite's files go: the one layout of records, transcripts and cassettes.

Every file a run leaves is named from its *stem* (`run_stem`): the record is
``runs/<stem>.record.json``, the transcript ``transcripts/<stem>.transcript.json``
and the cassette ``<cassettes>/<stem>.cassette.jsonl``, so a cassette sits at the
same relative path as its record under ``runs/``.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._discovery import SuiteWorkflow

__all__ = [
    "CASSETTE_SUFFIX",
    "RECORD_SUFFIX",
    "TRANSCRIPT_SUFFIX",
    "folder_names",
    "run_stem",
]

RECORD_SUFFIX = ".record.json"
TRANSCRIPT_SUFFIX = ".transcript.json"
CASSETTE_SUFFIX = ".cassette.jsonl"

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}")


def run_stem(folder: str, repetition: int) -> str:
    """The relative name of one run's files, without folder root or suffix."""
    return f"{folder}/{repetition:03d}"


def folder_names(workflows: Sequence[SuiteWorkflow]) -> dict[str, str]:
    """A safe folder name per workflow name, distinct even without case.

    A plain name is its own folder; another gets a slug and a short digest of
    the name. Whatever a folder would be, one already taken (a plain name can
    look like another's slug and digest, or differ only in case) gets a number.
    """
    names: dict[str, str] = {}
    taken: set[str] = set()
    for item in workflows:
        name = item.name
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
        names[name] = chosen
    return names
