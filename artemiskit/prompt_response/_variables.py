"""``{{var}}`` substitution in prompts and ``${VAR}`` expansion over a document.

Both follow the TypeScript ArtemisKit: ``{{name}}`` (no spaces inside the braces)
is replaced in one pass, values formatted as JS ``String()``; ``${VAR}`` and
``${VAR:-default}`` are expanded in every string value of a scenario before it is
checked, an unset or empty variable falling back to the default, else to ``""``.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response._js import js_string

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from artemiskit._common._yaml import KeyPath

__all__ = ["expand_environment", "substitute_variables", "variable_names"]

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_ENVIRONMENT = re.compile(r"\$\{([^}]+)\}")


def substitute_variables(text: str, variables: Mapping[str, object]) -> str:
    """Replace each ``{{name}}`` of ``text`` whose name ``variables`` holds.

    Args:
        text: A prompt or system prompt.
        variables: The merged scenario and case variables.

    Returns:
        The text with known placeholders replaced (JS ``String()`` formatting);
        unknown placeholders stay as written.
    """
    if not variables:
        return text

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        return js_string(variables[name]) if name in variables else match.group(0)

    return _PLACEHOLDER.sub(replace, text)


def variable_names(text: str) -> list[str]:
    """The names of the ``{{name}}`` placeholders in ``text``, in order."""
    return _PLACEHOLDER.findall(text)


def expand_environment(
    value: Any,
    *,
    missing: Callable[[KeyPath, str], None],
    environ: Mapping[str, str] | None = None,
    path: KeyPath = (),
) -> Any:
    """Expand ``${VAR}`` / ``${VAR:-default}`` in every string value of ``value``.

    Args:
        value: Plain data parsed from YAML; keys are never expanded.
        missing: Told the key path and variable name of each variable that is
            unset (or empty) and has no default; it expands to ``""``.
        environ: The environment (default: `os.environ`).
        path: The key path of ``value`` in its document.

    Returns:
        A copy of ``value`` with every string expanded.
    """
    env = os.environ if environ is None else environ
    if isinstance(value, str):

        def replace(match: re.Match[str]) -> str:
            parts = match.group(1).split(":-")
            name = parts[0]
            default = parts[1] if len(parts) > 1 else None
            found = env.get(name)
            if found:
                return found
            if default:
                return default
            if default is None:
                missing(path, name)
            return ""

        return _ENVIRONMENT.sub(replace, value)
    if isinstance(value, dict):
        return {
            k: expand_environment(v, missing=missing, environ=env, path=(*path, k))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [
            expand_environment(v, missing=missing, environ=env, path=(*path, i))
            for i, v in enumerate(value)
        ]
    return value
