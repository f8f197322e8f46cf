"""The public form of a parsed YAML document: `YamlDocument`, an attrs class.

The package's readers use the plain `ParsedYaml` (a cold check imports no attrs);
`parse_yaml` gives users the same document as an attrs class, like every public data
type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._yaml import KeyPath, ParsedYaml, parse_yaml_plain

if TYPE_CHECKING:
    from artemiskit._errors import Problem

__all__ = ["YamlDocument", "parse_yaml"]


@attrs.frozen(kw_only=True)
class YamlDocument:
    """A parsed YAML document: plain data plus the position of every node.

    Attributes:
        data: The document as plain Python data.
        source: The file name (or ``<string>``) used in problems.
    """

    data: Any = attrs.field(repr=False)
    source: str
    _positions: dict[KeyPath, tuple[int, int]] = attrs.field(
        alias="positions", repr=False
    )
    _key_positions: dict[KeyPath, tuple[int, int]] = attrs.field(
        alias="key_positions", repr=False
    )

    def _plain(self) -> ParsedYaml:
        return ParsedYaml(
            data=self.data,
            source=self.source,
            positions=self._positions,
            key_positions=self._key_positions,
        )

    def position(self, path: KeyPath) -> tuple[int, int] | None:
        """Return the 1-based (line, column) of the node at ``path``.

        When no node sits at ``path`` (a missing key), the nearest ancestor's
        position is returned; ``None`` only for an empty document.
        """
        return self._plain().position(path)

    def key_position(self, path: KeyPath) -> tuple[int, int] | None:
        """Return the position of the mapping key that ends ``path``, if any.

        Falls back to `position` for sequence items and missing keys.
        """
        return self._plain().key_position(path)

    def problem(self, message: str, path: KeyPath, *, at_key: bool = False) -> Problem:
        """Build a `Problem` at ``path`` with this document's source and position."""
        return self._plain().problem(message, path, at_key=at_key)


def parse_yaml(text: str, *, source: str = "<string>") -> YamlDocument:
    """Parse one YAML document safely into plain data with positions.

    Explicit tags, anchors, aliases, merge keys, duplicate and non-string keys,
    several documents and nesting deeper than 64 are refused; scalars follow the
    YAML 1.2 core schema.

    Raises:
        WorkflowError: The text is not such a document; every problem has its line
            and column, never the offending value.
    """
    parsed = parse_yaml_plain(text, source=source)
    return YamlDocument(
        data=parsed.data,
        source=parsed.source,
        positions=parsed.positions,
        key_positions=parsed.key_positions,
    )
