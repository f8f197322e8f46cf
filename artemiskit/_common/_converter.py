"""The project's one cattrs converter.

Every attrs class that crosses a serialization boundary (workflow, session state,
record, checkpoint) is (un)structured with `CONVERTER`, never the global converter.
"""

from __future__ import annotations

from cattrs.preconf.json import JsonConverter, make_converter

__all__ = ["CONVERTER"]

CONVERTER: JsonConverter = make_converter(
    forbid_extra_keys=True, detailed_validation=True
)
