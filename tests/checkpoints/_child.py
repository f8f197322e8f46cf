"""A separate process using a checkpoint store, driven over stdin/stdout lines.

Usage: ``python _child.py COMMAND DIRECTORY``. Commands:

- ``hold MODE``: print ``ready``, wait for a ``go`` line, open; print ``opened`` or
  ``refused REASON``; when opened, keep the claim until stdin closes.
- ``recover``: resume, begin a recovery, print ``recovering``, wait for stdin to close.
- ``commit-loop``: create, then forever commit snapshot n with two entries after it,
  printing ``committed n`` after each.
- ``append-loop``: resume, then forever append entry n, printing ``appended n``.
"""

from __future__ import annotations

import hashlib
import sys

import anyio

from artemiskit._errors import CheckpointError
from artemiskit.checkpoints import LocalCheckpointStore


def snapshot_payload(n: int) -> dict[str, object]:
    """Snapshot n: sizes vary so a partial write could not pass for a whole one."""
    pad = "s" * (1000 + (n * 7919) % 60000)
    return {"n": n, "pad": pad, "digest": hashlib.sha256(pad.encode()).hexdigest()}


def entry_payload(n: int, k: int) -> dict[str, object]:
    """Entry k after snapshot n."""
    return {"n": n, "k": k, "pad": "e" * (500 + (n * 31 + k) % 3000)}


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(command: str, directory: str) -> None:
    store = LocalCheckpointStore(directory)
    if command == "hold":
        say("ready")
        assert sys.stdin.readline().strip() == "go"
        try:
            await store.open(mode=sys.argv[3])  # type: ignore[arg-type]
        except CheckpointError as exc:
            say(f"refused {exc.reason}")
            return
        say("opened")
        sys.stdin.read()
        await store.close()
    elif command == "recover":
        await store.open(mode="resume")
        await store.begin_recovery()
        say("recovering")
        sys.stdin.read()
    elif command == "commit-loop":
        await store.open(mode="create")
        n = 0
        while True:
            n += 1
            await store.commit_snapshot(snapshot_payload(n))
            await store.append(entry_payload(n, 1))
            await store.append(entry_payload(n, 2))
            say(f"committed {n}")
    elif command == "append-loop":
        await store.open(mode="resume")
        n = 0
        while True:
            n += 1
            await store.append({"n": n, "pad": "a" * (100 + n % 5000)})
            say(f"appended {n}")
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
