"""Real MCP servers for the tests, written with the official ``mcp`` SDK.

``python servers.py KIND [--http PORT]`` serves one kind over stdio (default) or
streamable HTTP on 127.0.0.1:

- ``notes``: a read-only file server over the folder ``$NOTES_DIR`` (``read_note``,
  ``list_notes``) plus ``erase_notes``, a tool workflows never declare;
- ``counter``: ``bump`` adds one to the integer in the file ``$COUNTER_FILE``
  (its effect is counted from outside);
- ``crashy``: ``crash`` ends the server's process in the middle of the call;
  ``fail`` answers ``isError``; ``big`` answers more than the result bound;
- ``silent``: ``wait`` never answers;
- ``patterns``: ``check`` takes a ``code`` whose schema ``pattern`` backtracks
  catastrophically in Python's ``re`` (``^(a+)+$``); ``refused`` has a pattern with a
  backreference, which the linear engine cannot take.

Every call is appended to ``$MCP_LOG`` (one JSON line: tool name and arguments), so
a test can prove what the server saw. The server's pid goes to ``$MCP_PID_FILE``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field


def _log(tool: str, arguments: dict[str, object]) -> None:
    log = os.environ.get("MCP_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as out:
            entry = {"tool": tool, "arguments": arguments, "pid": os.getpid()}
            out.write(json.dumps(entry) + "\n")


def notes() -> MCPServer:
    """The read-only file server (and one undeclared, destructive tool)."""
    app = MCPServer("notes")
    folder = Path(os.environ.get("NOTES_DIR", "."))

    @app.tool()
    def read_note(name: str) -> str:
        """Read the note called ``name``."""
        _log("read_note", {"name": name})
        return (folder / f"{name}.txt").read_text(encoding="utf-8")

    @app.tool()
    def list_notes() -> list[str]:
        """List the names of every note."""
        _log("list_notes", {})
        return sorted(p.stem for p in folder.glob("*.txt"))

    @app.tool()
    def erase_notes() -> str:
        """Erase every note (never declared by a workflow)."""
        _log("erase_notes", {})
        for path in folder.glob("*.txt"):
            path.unlink()
        return "erased"

    return app


def counter() -> MCPServer:
    """A side-effecting counter kept in a file."""
    app = MCPServer("counter")
    path = Path(os.environ["COUNTER_FILE"])

    def add_one() -> int:
        value = int(path.read_text() or "0") + 1 if path.exists() else 1
        path.write_text(str(value))
        return value

    def bump(label: str) -> int:
        """Add one to the counter and return it."""
        _log("bump", {"label": label})
        return add_one()

    def bump_v2(label: str, step: int = 1) -> int:
        """Add one to the counter and return it."""
        _log("bump", {"label": label, "step": step})
        return add_one()

    # COUNTER_SCHEMA=v2 lists bump with a changed input schema
    changed = os.environ.get("COUNTER_SCHEMA") == "v2"
    app.tool(name="bump")(bump_v2 if changed else bump)
    return app


def crashy() -> MCPServer:
    """A server whose tools crash, fail or answer too much."""
    app = MCPServer("crashy")

    @app.tool()
    def crash() -> str:
        """End the process in the middle of the call."""
        _log("crash", {})
        os._exit(1)

    @app.tool()
    def fail() -> str:
        """Answer with isError."""
        _log("fail", {})
        raise ValueError("SENTINEL-SERVER-ERROR: the tool failed on purpose")

    @app.tool()
    def big() -> str:
        """Answer more than the result bound."""
        _log("big", {})
        return "x" * (5 * 1024 * 1024)

    @app.tool()
    def ok() -> str:
        """Answer at once."""
        _log("ok", {})
        return "fine"

    return app


def silent() -> MCPServer:
    """A server that never answers a call."""
    app = MCPServer("silent")

    @app.tool()
    def wait() -> str:
        """Never answer."""
        _log("wait", {})
        while True:
            time.sleep(3600)

    return app


def patterns() -> MCPServer:
    """Tools whose input schemas carry patterns."""
    app = MCPServer("patterns")
    refuse = os.environ.get("PATTERNS_REFUSED") == "1"

    @app.tool()
    def check(code: Annotated[str, Field(pattern=r"^(a+)+$")]) -> str:
        """Accept a code of a's."""
        _log("check", {"code": code})
        return "ok"

    if refuse:

        @app.tool()
        def refused(
            word: Annotated[str, Field(json_schema_extra={"pattern": r"^(a)\1$"})],
        ) -> str:
            """A pattern with a backreference."""
            _log("refused", {"word": word})
            return "ok"

    return app


KINDS = {
    "notes": notes,
    "counter": counter,
    "crashy": crashy,
    "silent": silent,
    "patterns": patterns,
}

if __name__ == "__main__":
    pid_file = os.environ.get("MCP_PID_FILE")
    if pid_file:
        Path(pid_file).write_text(str(os.getpid()))
    server = KINDS[sys.argv[1]]()
    if len(sys.argv) > 3 and sys.argv[2] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[3]))
    else:
        server.run()
