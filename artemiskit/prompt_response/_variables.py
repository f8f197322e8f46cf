"""``{{var}}`` substitution in prompts and ``${VAR}`` expansion over a document.

Both follow the TypeScript ArtemisKit: ``{{name}}`` (no spaces inside the braces)
is replaced in one pass, values formatted as JS ``String()``; ``${VAR}`` and
``${VAR:-default}`` are expanded in every string value of a scenario before it is
checked, an unset or empty variable falling back to the default, else to ``""``.

Unlike the original, a scenario never receives a secret: a variable whose name
looks like one (``*_KEY``, ``*_TOKEN``, ``*_SECRET``, ``*PASSWORD*``) or whose
value holds a configured credential is treated as unset (its default, else
``""``), because whatever a scenario holds ends up in manifests and exports.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response._js import js_string

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from artemiskit._common._yaml import KeyPath

__all__ = [
    "expand_environment",
    "looks_secret",
    "substitute_variables",
    "variable_names",
]

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_ENVIRONMENT = re.compile(r"\$\{([^}]+)\}")
_SECRET_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET")


def looks_secret(name: str) -> bool:
    """Whether an environment variable's name says it holds a secret.

    ``*_KEY``, ``*_TOKEN``, ``*_SECRET`` or any name containing ``PASSWORD``,
    in any case.
    """
    upper = name.strip().upper()
    return upper.endswith(_SECRET_SUFFIXES) or "PASSWORD" in upper


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
    withheld: Sequence[str] | None = None,
    refused: Callable[[KeyPath, str], None] | None = None,
) -> Any:
    """Expand ``${VAR}`` / ``${VAR:-default}`` in every string value of ``value``.

    Args:
        value: Plain data parsed from YAML; keys are never expanded.
        missing: Told the key path and variable name of each variable that is
            unset (or empty) and has no default; it expands to ``""``.
        environ: The environment (default: `os.environ`).
        path: The key path of ``value`` in its document.
        withheld: When given (a scenario), secrets are not expanded: a variable
            with a secret-looking name (`looks_secret`) or whose value holds one
            of these credential values is treated as unset. ``None`` (the
            trusted configuration): every variable expands.
        refused: Told the key path and name of each variable withheld.

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
            if (
                found
                and withheld is not None
                and (looks_secret(name) or any(secret in found for secret in withheld))
            ):
                if refused is not None:
                    refused(path, name)
                return default or ""
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
            k: expand_environment(
                v,
                missing=missing,
                environ=env,
                path=(*path, k),
                withheld=withheld,
                refused=refused,
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [
            expand_environment(
                v,
                missing=missing,
                environ=env,
                path=(*path, i),
                withheld=withheld,
                refused=refused,
            )
            for i, v in enumerate(value)
        ]
    return value
