"""``MODULE:ATTR`` references: host objects (tools, scorers) imported by name.

The CLI's ``--tools``/``--scorers`` and the pytest plugin's ``--akit-tools`` /
``--akit-scorers`` all resolve their references here. Importing runs the module's
code: only trusted host code may be named.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, TypeVar

from artemiskit._errors import ConfigError

__all__ = ["import_host_objects"]

T = TypeVar("T")


def _refused(spec: str, message: str) -> ConfigError:
    return ConfigError(f"{spec}: {message}", reason="invalid_reference")


def import_host_objects(
    spec: str,
    kind: type[T],
    *,
    folder: str | os.PathLike[str] | None = None,
) -> tuple[T, ...]:
    """Import the ``kind`` object, or the sequence of them, that ``MODULE:ATTR`` names.

    Args:
        spec: ``MODULE:ATTR`` (``ATTR`` may be dotted).
        kind: The class every imported object must be (`Tool`, `Scorer`).
        folder: Searched for the module first, like ``python -m`` searches the
            current directory (default: the current directory).

    Returns:
        The objects, in order.

    Raises:
        ConfigError: The reference is malformed, the module cannot be imported,
            the attribute is missing, or it is neither a ``kind`` nor a sequence
            of them (``invalid_reference``).
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise _refused(spec, "expected MODULE:ATTR, e.g. mymodule:OBJECTS")
    where = os.fspath(folder) if folder is not None else os.getcwd()
    if where not in sys.path:
        sys.path.insert(0, where)
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise _refused(
            spec, f"cannot import module {module_name!r} ({type(exc).__name__})"
        ) from None
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise _refused(spec, f"module {module_name!r} has no {attribute!r}")
        value = getattr(value, part)
    if isinstance(value, kind):
        return (value,)
    if (
        isinstance(value, str | bytes)
        or not isinstance(value, Sequence)
        or not all(isinstance(item, kind) for item in value)
    ):
        raise _refused(spec, f"not a sequence of artemiskit.{kind.__name__} objects")
    return tuple(value)
