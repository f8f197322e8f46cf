"""One lazy-export mechanism for every public package.

A public package names each export once, as an import under ``TYPE_CHECKING``::

    if typing.TYPE_CHECKING:
        from artemiskit.suites._runner import SuiteResult as SuiteResult

    export_lazily(globals())

Type checkers read those imports; at run time `export_lazily` reads the same
statements from the package's source, so ``import artemiskit.suites`` loads no
implementation module and ``artemiskit.suites.SuiteResult`` imports the one
module that defines it on first use. As httpx and anyio do, an exported class or
function reports its public home in ``__module__`` (the top-level ``artemiskit``
when it is exported there, else the package), so reprs, help and tracebacks show
the name a user writes.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types
import typing
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, MutableMapping

__all__ = ["Deprecated", "export_lazily", "public_home", "retired"]

_TOP: Final = "artemiskit"


class Deprecated(typing.NamedTuple):
    """A name kept for one release: where it now lives and what to say.

    A named tuple rather than attrs: ``import artemiskit`` (and ``akit --help``)
    must not load attrs.

    Attributes:
        module: The module defining the value.
        attribute: The value's name there (defaults to the deprecated name).
        message: The warning shown on each access.
    """

    module: str
    message: str
    attribute: str | None = None


def retired(
    package: str,
    homes: Mapping[str, Iterable[str]],
    instead: str | None = None,
) -> dict[str, Deprecated]:
    """Names ``package`` keeps for one release, by the module that now holds them.

    Args:
        package: The public package that exported the names.
        homes: The names, by the module defining them (a public module when they
            moved, a private one when they are internal now).
        instead: What to do instead (``{name}`` in it stands for each name);
            ``None`` says to import each name from its (public) home.

    Returns:
        The ``deprecated`` table for `export_lazily`: each access warns ``PACKAGE.NAME
        is deprecated and will be removed in the next release: ...``.
    """
    advice = instead or "import it from {module}"
    return {
        name: Deprecated(
            module=module,
            message=f"{package}.{name} is deprecated and will be removed in the next "
            f"release: {advice.format(name=name, module=module)}",
        )
        for module, names in homes.items()
        for name in names
    }


def _static_exports(source: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and _is_type_checking(node.test)):
            continue
        for child in node.body:
            if isinstance(child, ast.ImportFrom) and child.module:
                for alias in child.names:
                    table[alias.asname or alias.name] = child.module
    return table


def _is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}


def _exported_names(package: str) -> Iterable[str]:
    module = sys.modules.get(package)
    return () if module is None else getattr(module, "__all__", ())


def public_home(package: str, name: str) -> str:
    """The public module a user reaches ``name`` through.

    Args:
        package: The public package exporting ``name``.
        name: The exported name.

    Returns:
        ``"artemiskit"`` when the top level exports ``name``, else ``package``.
    """
    return _TOP if name in _exported_names(_TOP) else package


def _adopt(value: object, home: str) -> None:
    """Point ``value.__module__`` at ``home`` where that keeps it working."""
    if not isinstance(value, (type, types.FunctionType)):
        return
    module = getattr(value, "__module__", "")
    if not module.startswith(f"{_TOP}.") or "._" not in module:
        return  # already public, or not ours
    if isinstance(value, type) and not _hints_resolved(value):
        return
    value.__module__ = home


def _hints_resolved(cls: type) -> bool:
    """Resolve a class's string annotations while its defining module is known.

    ``typing.get_type_hints`` (and cattrs through it) looks a class's names up
    in the namespace of ``cls.__module__``; once that is the public package the
    defining module's imports are out of reach, so the annotations are resolved
    first and stored resolved. A class whose annotations name things only a type
    checker imports keeps its defining module.
    """
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        return False
    own = inspect.get_annotations(cls)
    if own:
        cls.__annotations__ = {name: hints.get(name, own[name]) for name in own}
    if hasattr(cls, "__attrs_attrs__"):  # an attrs class, so attrs is loaded
        sys.modules["attrs"].resolve_types(cls)
    return True


def export_lazily(
    namespace: MutableMapping[str, object],
    *,
    deprecated: Mapping[str, Deprecated] | None = None,
) -> None:
    """Install ``__all__``, ``__getattr__`` and ``__dir__`` in a package.

    Args:
        namespace: The package's ``globals()``.
        deprecated: Names still reachable for one release, with a warning; not
            in ``__all__``.
    """
    package = str(namespace["__name__"])
    source = Path(str(namespace["__file__"])).read_text("utf-8")
    table = _static_exports(source)
    retired = dict(deprecated or {})
    namespace["__all__"] = sorted(table)
    namespace["_EXPORTS"] = table
    namespace["_DEPRECATED"] = retired
    namespace["__getattr__"] = _getter(package, namespace, table, retired)
    namespace["__dir__"] = lambda: sorted({*namespace, *table})


def _getter(
    package: str,
    namespace: MutableMapping[str, object],
    table: Mapping[str, str],
    retired: Mapping[str, Deprecated],
) -> Callable[[str], object]:
    def __getattr__(name: str) -> object:
        module = table.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            _adopt(value, public_home(package, name))
            # Cached: the next access is a plain module attribute, with no hook.
            namespace[name] = value
            return value
        entry = retired.get(name)
        if entry is not None:
            warnings.warn(entry.message, DeprecationWarning, stacklevel=2)
            return getattr(
                importlib.import_module(entry.module), entry.attribute or name
            )
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
