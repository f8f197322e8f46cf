"""The conformance suite every environment must pass (see `artemiskit.testing`).

Run it from any test framework: build an `EnvironmentConformance` around a factory and
run each name of `EnvironmentConformance.check_names()`; with pytest::

    @pytest.mark.parametrize("check", EnvironmentConformance.check_names())
    async def test_my_environment(check: str) -> None:
        await EnvironmentConformance(factory=MyFactory()).run(check)

Each check creates its own fresh environment, closes it, and raises
`ConformanceFailure` (an `AssertionError`) on the first difference from the contract.
The symlink check needs a way to plant a symbolic link (``make_symlink``); without
one it passes trivially, as for environments that have no links at all.
"""

from __future__ import annotations

import contextlib
import itertools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

import anyio
import attrs

from artemiskit._common._limits import (
    MAX_ENVIRONMENT_BYTES,
    MAX_FILE_BYTES,
    MAX_PATH_BYTES,
)
from artemiskit._errors import EnvironmentFailureError, FileOperationError
from artemiskit.environments._base import Environment, EnvironmentFactory

__all__ = ["ConformanceFailure", "EnvironmentConformance", "SymlinkMaker"]

SymlinkMaker = Callable[[Environment, str, str], Awaitable[None]]
"""``await make_symlink(environment, link_path, target)`` plants a symbolic link."""

_run_numbers = itertools.count(1)
#: Makes run ids unique across processes sharing one Docker Engine (xdist, CI).
_PROCESS_TOKEN = uuid.uuid4().hex[:12]


class ConformanceFailure(AssertionError):
    """An environment broke the contract the conformance suite checks."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceFailure(message)


async def _refused(reason: str, operation: Awaitable[object], what: str) -> None:
    try:
        await operation
    except FileOperationError as exc:
        _expect(exc.reason == reason, f"{what}: reason {exc.reason!r}, not {reason!r}")
    else:
        raise ConformanceFailure(f"{what}: accepted, expected refusal {reason!r}")


@attrs.frozen(kw_only=True)
class EnvironmentConformance:
    """The shared behaviour of environments, as runnable checks.

    Attributes:
        factory: The factory under test.
        make_symlink: Plants a symbolic link inside an environment, for the symlink
            check; ``None`` when the environment cannot hold links.
    """

    factory: EnvironmentFactory
    make_symlink: SymlinkMaker | None = None

    @classmethod
    def check_names(cls) -> list[str]:
        """Return the name of every check, sorted."""
        return sorted(
            name
            for name in dir(cls)
            if name.startswith("check_") and name != "check_names"
        )

    async def run(self, name: str) -> None:
        """Run the check called ``name``.

        Raises:
            ConformanceFailure: The environment broke the contract.
        """
        if name not in self.check_names():
            raise ValueError(f"no conformance check named {name!r}")
        check: Callable[[], Awaitable[None]] = getattr(self, name)
        await check()

    @contextlib.asynccontextmanager
    async def _fresh(
        self, files: Mapping[str, str] | None = None
    ) -> AsyncIterator[Environment]:
        run_id = (
            f"conformance-{self.factory.kind}-{_PROCESS_TOKEN}-{next(_run_numbers)}"
        )
        environment = await self.factory.create(run_id=run_id, files=files or {})
        try:
            yield environment
        finally:
            report = await environment.close()
        _expect(report.status == "complete", f"cleanup not complete: {report}")

    async def check_identity(self) -> None:
        """The environment is an `Environment` of the factory's kind."""
        async with self._fresh() as env:
            _expect(isinstance(env, Environment), "not an Environment")
            _expect(env.kind == self.factory.kind, "kind differs from the factory's")
            _expect(isinstance(env.supports_checkpoint, bool), "capability not bool")
            _expect(
                isinstance(self.factory.supports_checkpoint, bool),
                "factory capability not bool",
            )
            _expect(self.factory.default_cleanup_timeout_ms > 0, "no cleanup bound")

    async def check_initial_files_are_a_copy(self) -> None:
        """Initial files are readable, normalized, and copied from the caller."""
        files = {"docs/a.md": "A\n", "./b.txt": "", "c//d.txt": "é✓ \r\n\x00end\n\n"}
        async with self._fresh(files) as env:
            files["docs/a.md"] = "changed"
            _expect(await env.read_file("docs/a.md") == "A\n", "initial file changed")
            _expect(await env.read_file("b.txt") == "", "empty file differs")
            text = await env.read_file("c/d.txt")
            _expect(text == "é✓ \r\n\x00end\n\n", "text not kept exactly")
            snap = await env.snapshot()
            snap["b.txt"] = "mutated"
            _expect(await env.read_file("b.txt") == "", "snapshot is not a copy")

    async def check_listing(self) -> None:
        """Listings are sorted, scoped to a directory, and never list directories."""
        files = {"z": "", "a/b": "", "a/c/d": "", "ab": "", "sp ace/n\nl": "", "B": ""}
        async with self._fresh(files) as env:
            everything = sorted(files)
            _expect(await env.list_files() == everything, "full listing differs")
            for root in ("", ".", "./"):
                _expect(await env.list_files(root) == everything, "root listing")
            _expect(await env.list_files("a") == ["a/b", "a/c/d"], "scoped listing")
            _expect(await env.list_files("a/") == ["a/b", "a/c/d"], "a/ listing")
            _expect(await env.list_files("./a/c") == ["a/c/d"], "nested listing")
            _expect(await env.list_files("missing") == [], "missing dir not empty")
            await _refused("not_a_directory", env.list_files("ab"), "list a file")
            await _refused("not_a_directory", env.list_files("ab/x"), "list under file")
            await _refused("invalid_path", env.list_files("/etc"), "list absolute")
            await _refused("invalid_path", env.list_files("a/../.."), "list ..")

    async def check_read_refusals(self) -> None:
        """Reading a missing file, a directory, or under a file is refused."""
        async with self._fresh({"d/f.txt": "x", "file": "y"}) as env:
            await _refused("not_found", env.read_file("nope"), "read missing")
            await _refused("not_found", env.read_file("d/nope"), "read missing in dir")
            await _refused("not_found", env.read_file("e/nope"), "read missing dir")
            await _refused("is_directory", env.read_file("d"), "read directory")
            await _refused(
                "not_a_directory", env.read_file("file/x"), "read under file"
            )

    async def check_write(self) -> None:
        """Writes create parents, replace files, and refuse structural conflicts."""
        async with self._fresh({"file": "y", "d/f": "x"}) as env:
            await env.write_file("new/deep/er/f.md", "one")
            await env.write_file("./new//deep/er/f.md", "two")
            _expect(await env.read_file("new/deep/er/f.md") == "two", "not replaced")
            _expect("new/deep/er/f.md" in await env.list_files("new"), "not listed")
            await _refused(
                "not_a_directory", env.write_file("file/x", ""), "under file"
            )
            await _refused("not_a_directory", env.write_file("file/x/y", ""), "deeper")
            await _refused("is_directory", env.write_file("d", ""), "over directory")
            _expect(await env.read_file("file") == "y", "refused write changed a file")

    async def check_delete(self) -> None:
        """Deletes remove files; emptied directories disappear with their last file."""
        async with self._fresh({"d/e/f": "x", "d/g": "y", "file": "z"}) as env:
            await env.delete_file("d/e/f")
            await _refused("not_found", env.read_file("d/e/f"), "deleted file read")
            await _refused("not_found", env.delete_file("d/e/f"), "delete twice")
            await _refused("is_directory", env.delete_file("d"), "delete directory")
            await _refused("not_a_directory", env.delete_file("file/x"), "under file")
            _expect(await env.list_files("d/e") == [], "emptied directory lists files")
            await env.write_file("d/e", "now a file")
            _expect(await env.read_file("d/e") == "now a file", "emptied dir remains")
            await env.delete_file("d/e")
            await env.delete_file("d/g")
            await env.write_file("d", "a file where a directory was")
            _expect(await env.list_files() == ["d", "file"], "listing after deletes")

    async def check_path_rules(self) -> None:
        """Every operation refuses invalid paths the same way."""
        too_long = "/".join(["a" * 100] * 5) + "/" + "b" * 8
        longest = too_long[:-1]
        bad = ["", "/etc/passwd", "../x", "a/../../x", "a/..", "a\\b", "a\x00b"]
        bad += [".", "./", too_long, "s" * 256]
        async with self._fresh() as env:
            for path in bad:
                await _refused("invalid_path", env.read_file(path), "read bad path")
                await _refused("invalid_path", env.write_file(path, ""), "write bad")
                await _refused("invalid_path", env.delete_file(path), "delete bad")
            _expect(len(longest.encode()) == MAX_PATH_BYTES, "test path length")
            await env.write_file(longest, "ok")
            await env.write_file("s" * 255, "ok")
            _expect(await env.read_file(longest) == "ok", "longest path lost")

    async def check_file_size_bound(self) -> None:
        """One file holds at most 1 MiB of UTF-8; a refused write changes nothing."""
        async with self._fresh({"f": "old"}) as env:
            await env.write_file("max", "m" * MAX_FILE_BYTES)
            _expect(len(await env.read_file("max")) == MAX_FILE_BYTES, "max file")
            await _refused(
                "file_too_large",
                env.write_file("f", "m" * (MAX_FILE_BYTES + 1)),
                "1 MiB+1",
            )
            wide = "é" * (MAX_FILE_BYTES // 2 + 1)
            await _refused("file_too_large", env.write_file("f", wide), "UTF-8 bytes")
            _expect(await env.read_file("f") == "old", "refused write changed the file")

    async def check_environment_size_bound(self) -> None:
        """All files together hold at most 64 MiB; replacing and deleting frees room."""
        block = "x" * MAX_FILE_BYTES
        count = MAX_ENVIRONMENT_BYTES // MAX_FILE_BYTES
        async with self._fresh({f"f/{n:03}": block for n in range(count)}) as env:
            await _refused("environment_full", env.write_file("one", "1"), "full")
            await env.write_file("f/000", block[:-1])
            await env.write_file("one", "1")
            await _refused("environment_full", env.write_file("two", "2"), "full")
            await env.delete_file("f/001")
            await env.write_file("two", "2" * 1000)
            _expect(len(await env.list_files()) == count + 1, "files after refusals")

    async def check_snapshot(self) -> None:
        """`snapshot` returns every file; a new environment made from it equals it.

        That is how a resumed run gets its files back, so it must hold for every
        environment that declares `supports_checkpoint`.
        """
        async with self._fresh({"a/b": "1", "c": "2"}) as env:
            await env.write_file("d/e", "3")
            await env.delete_file("c")
            snap = await env.snapshot()
            _expect(snap == {"a/b": "1", "d/e": "3"}, "snapshot differs")
            snap["a/b"] = "changed by the caller"
            _expect(await env.read_file("a/b") == "1", "snapshot is not a copy")
        snap["a/b"] = "1"
        async with self._fresh(snap) as recreated:
            _expect(await recreated.snapshot() == snap, "recreated files differ")
            _expect(await recreated.list_files() == ["a/b", "d/e"], "recreated listing")

    async def check_concurrent_operations(self) -> None:
        """Concurrent operations on one environment all take effect."""
        async with self._fresh() as env:
            async with anyio.create_task_group() as group:
                for n in range(20):
                    group.start_soon(env.write_file, f"c/{n:02}", str(n))
            _expect(len(await env.list_files("c")) == 20, "concurrent writes lost")

    async def check_close_is_idempotent(self) -> None:
        """Closing twice reports ``complete`` twice; a closed environment refuses."""
        env = await self.factory.create(
            run_id=f"conformance-{_PROCESS_TOKEN}-{next(_run_numbers)}",
            files={"f": "x"},
        )
        first = await env.close()
        second = await env.close()
        _expect(first.status == "complete" and second == first, "close not idempotent")
        try:
            await env.read_file("f")
        except EnvironmentFailureError:
            pass
        else:
            raise ConformanceFailure("a closed environment still served a read")

    async def check_symlinks(self) -> None:
        """Symbolic links are never followed, listed or replaced."""
        if self.make_symlink is None:
            return
        async with self._fresh({"real.txt": "secret", "dir/x": "in dir"}) as env:
            await self.make_symlink(env, "link.txt", "real.txt")
            await self.make_symlink(env, "ldir", "dir")
            await self.make_symlink(env, "escape", "/etc/passwd")
            await self.make_symlink(env, "dir/up", "..")
            for path in ("link.txt", "ldir/x", "escape", "dir/up/real.txt"):
                await _refused("invalid_path", env.read_file(path), "read via link")
            await _refused("invalid_path", env.write_file("link.txt", "w"), "write")
            await _refused("invalid_path", env.write_file("ldir/new", "w"), "in link")
            await _refused("invalid_path", env.delete_file("link.txt"), "delete")
            await _refused("invalid_path", env.list_files("ldir"), "list link dir")
            listed = await env.list_files()
            _expect(listed == ["dir/x", "real.txt"], "links listed or followed")
            _expect(await env.read_file("real.txt") == "secret", "target changed")
