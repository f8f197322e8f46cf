"""Transports shared by many sessions: one connection pool per provider entry."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, TypeVar, cast

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

__all__ = ["SharedTransports"]

T = TypeVar("T")


class SharedTransports:
    """Transports (such as HTTP connection pools) shared by many sessions.

    A suite holds one for its whole run and gives it to every run's session, so
    the runs of one provider entry share one connection pool. Provider builders
    find it in `ProviderRequest.shared` and call `get` with a key naming the
    entry and its transport settings; whoever holds it calls `aclose` once the
    sessions are over.
    """

    def __init__(self) -> None:
        self._items: dict[str, object] = {}
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._lock = anyio.Lock()
        self._closed = False

    def __repr__(self) -> str:
        return f"SharedTransports(items={len(self._items)}, closed={self._closed})"

    async def get(
        self,
        key: str,
        create: Callable[[], Awaitable[T]],
        *,
        close: Callable[[T], Awaitable[None]] | None = None,
    ) -> T:
        """The object shared under ``key``, created by ``create`` on first use.

        Args:
            key: Names the provider entry and every setting of its transport
                (e.g. the entry's name and its transport digest).
            create: Builds the object; called once per key.
            close: Releases the object when `aclose` is called.

        Raises:
            RuntimeError: `aclose` was already called.
        """
        async with self._lock:
            if self._closed:
                raise RuntimeError("the shared transports are closed")
            if key not in self._items:
                item = await create()
                self._items[key] = item
                if close is not None:
                    self._closers.append(functools.partial(close, item))
            return cast("T", self._items[key])

    async def aclose(self) -> None:
        """Close every shared object (idempotent)."""
        async with self._lock:
            self._closed = True
            closers, self._closers = self._closers, []
            self._items.clear()
        for closer in closers:
            await closer()
