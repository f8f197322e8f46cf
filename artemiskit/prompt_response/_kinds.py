"""Which ArtemisKit file is which (shared with the workflow loader)."""

from __future__ import annotations

from artemiskit._common._kinds import describe_document, is_manifest

__all__ = ["describe_document", "is_manifest"]
