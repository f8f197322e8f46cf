"""Every catalogue tool's handler, by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.tools._documents import DOCUMENT_HANDLERS
from artemiskit.tools._files import FILE_HANDLERS
from artemiskit.tools._messages import MESSAGE_HANDLERS
from artemiskit.tools._records import RECORD_HANDLERS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.tools._base import Handler

__all__ = ["HANDLERS"]

HANDLERS: Mapping[str, Handler] = {
    **FILE_HANDLERS,
    **DOCUMENT_HANDLERS,
    **RECORD_HANDLERS,
    **MESSAGE_HANDLERS,
}
