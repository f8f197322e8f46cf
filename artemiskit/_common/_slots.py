"""Fast constructors for frozen attrs slots classes on the engine's hot path.

A step builds a few small frozen objects (a ledger entry, counters, a message, the
request to the target); attrs' ``__init__`` takes keywords and sets each slot
through ``object.__setattr__``, which is about twice the cost of setting the slot
through its descriptor. `slot_builder` and `slot_evolver` compile, per class, a
function that does the latter, building exactly what ``cls(...)`` and
``attrs.evolve`` build.

Rules of use:

- A class's fast constructor is made in the class's own module, next to the
  class (for example ``new_message = slot_builder(Message)`` in
  ``targets/_protocol.py``), never by another package reaching into it.
- The shortcut is only taken for a class whose fields neither validate nor
  convert. Give a field a validator or converter and the builder falls back
  to the class's own ``__init__`` (and the evolver to ``attrs.evolve``): the
  checks run, nothing breaks, only the shortcut is lost. `is_fast` says which;
  the engine's tests assert its hot classes keep it.
- `slot_updater` sets slots of an instance in place; it refuses a class that
  validates or converts, since no fallback could keep its checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

import attrs

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["is_fast", "slot_builder", "slot_evolver", "slot_updater"]

T = TypeVar("T")

#: The functions compiled by this module, so that `is_fast` can tell them apart.
_COMPILED: set[int] = set()


def _plain(cls: type[Any]) -> bool:
    """Whether ``cls`` is a slots class whose fields neither validate nor convert."""
    return "__slots__" in vars(cls) and all(
        field.validator is None and field.converter is None
        for field in attrs.fields(cls)
    )


def _field_names(cls: type[Any]) -> list[str]:
    return [field.name for field in attrs.fields(cls)]


def _unrolled(cls: type[Any], source: list[str]) -> Callable[..., Any]:
    """Compile ``source`` (one function) with each field's slot setter at hand.

    attrs generates its ``__init__`` the same way: unrolled per field, a slot
    set through its descriptor costs about half of a loop over the fields.
    """
    names = _field_names(cls)
    scope: dict[str, Any] = {
        "_new": object.__new__,
        "_cls": cls,
        "_setters": {name: getattr(cls, name).__set__ for name in names},
    }
    scope.update((f"_set_{name}", getattr(cls, name).__set__) for name in names)
    exec("\n".join(source), scope)
    function: Callable[..., Any] = scope["function"]
    _COMPILED.add(id(function))
    return function


def is_fast(function: Callable[..., Any]) -> bool:
    """Whether ``function`` (from this module) takes the slot shortcut."""
    return id(function) in _COMPILED


def slot_builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` taking every field positionally, in order.

    It builds what ``cls(**fields)`` builds; for a slots class without
    validators or converters in about half the time, else through ``cls``.
    """
    names = _field_names(cls)
    if not _plain(cls):

        def build(*values: Any) -> T:
            return cls(**dict(zip(names, values, strict=True)))

        return build
    source = [f"def function({', '.join(names)}):", "    new = _new(_cls)"]
    source += [f"    _set_{name}(new, {name})" for name in names]
    source.append("    return new")
    return _unrolled(cls, source)


def slot_evolver(cls: type[T]) -> Callable[[T, Mapping[str, Any]], T]:
    """``attrs.evolve`` as ``evolver(instance, changes)``, fast where it can be.

    For a slots class without validators or converters it copies every slot
    and applies ``changes`` without running ``__init__``: exactly what
    ``attrs.evolve`` builds. For any other class it is ``attrs.evolve``.
    """
    if not _plain(cls):

        def evolve(old: T, changes: Mapping[str, Any]) -> T:
            new: T = attrs.evolve(cast("Any", old), **changes)
            return new

        return evolve
    names = _field_names(cls)
    source = ["def function(old, changes):", "    new = _new(_cls)"]
    source += [f"    _set_{name}(new, old.{name})" for name in names]
    source += [
        "    for name, value in changes.items():",
        "        _setters[name](new, value)",
        "    return new",
    ]
    return _unrolled(cls, source)


def slot_updater(cls: type[T]) -> Callable[[T, Mapping[str, Any]], None]:
    """Set slots of an instance of ``cls`` in place: ``updater(instance, changes)``.

    Only for an instance nobody else has seen yet (the state owner's working
    copy within a step): it then becomes exactly what ``attrs.evolve`` would
    have built.

    Raises:
        TypeError: ``cls`` is not a slots class, or a field validates or
            converts (setting it in place would skip the check).
    """
    if not _plain(cls):
        raise TypeError(f"{cls.__name__} validates or converts, or has no slots")
    source = [
        "def function(instance, changes):",
        "    for name, value in changes.items():",
        "        _setters[name](instance, value)",
    ]
    return _unrolled(cls, source)
