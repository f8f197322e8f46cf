"""``MODULE:ATTR`` references: host objects (tools, scorers, agents) imported by name.

The CLI's ``--tools``/``--scorers``/``--agent`` and the pytest plugin's
``--akit-tools`` / ``--akit-scorers`` / ``--akit-agent`` all resolve their
references here. Importing runs the module's
code: only trusted host code may be named.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, TypeVar

from artemiskit._errors import ArtemisError, ConfigError

__all__ = ["import_host_attribute", "import_host_objects"]

T = TypeVar("T")


def _refused(spec: str, message: str) -> ConfigError:
    return ConfigError(f"{spec}: {message}", reason="invalid_reference")


def import_host_attribute(
    spec: str, *, folder: str | os.PathLike[str] | None = None
) -> Any:
    """Import the object that ``MODULE:ATTR`` names, whatever it is.

    Args:
        spec: ``MODULE:ATTR`` (``ATTR`` may be dotted).
        folder: Searched for the module first, like ``python -m`` searches the
            current directory (default: the current directory).

    Raises:
        ConfigError: The reference is malformed (``invalid_reference``), the
            module cannot be imported or raised while importing (its
            exception's type is named, never its text, which may hold secrets;
            a `SystemExit` too), or the attribute is missing
            (``unimportable_reference``); an `ArtemisError` or a
            `KeyboardInterrupt` the module raised passes through.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise _refused(spec, "expected MODULE:ATTR, e.g. mymodule:OBJECTS")
    where = os.fspath(folder) if folder is not None else os.getcwd()
    if where not in sys.path:
        sys.path.insert(0, where)
    try:
        value: Any = importlib.import_module(module_name)
    except (ArtemisError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # trusted host code; its text may hold secrets
        # (SystemExit too: a module that exits is one that cannot be imported)
        raise ConfigError(
            f"{spec}: cannot import module {module_name!r} ({type(exc).__name__})",
            reason="unimportable_reference",
        ) from None
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise ConfigError(
                f"{spec}: module {module_name!r} has no {attribute!r}",
                reason="unimportable_reference",
            )
        value = getattr(value, part)
    return value


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
    try:
        value = import_host_attribute(spec, folder=folder)
    except ConfigError as exc:
        if exc.reason != "unimportable_reference":
            raise
        raise ConfigError(exc.message, reason="invalid_reference") from None
    if isinstance(value, kind):
        return (value,)
    if (
        isinstance(value, str | bytes)
        or not isinstance(value, Sequence)
        or not all(isinstance(item, kind) for item in value)
    ):
        raise _refused(spec, f"not a sequence of artemiskit.{kind.__name__} objects")
    return tuple(value)
