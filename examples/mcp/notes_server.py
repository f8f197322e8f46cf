"""A small MCP server over stdio: read-only notes from the ``notes/`` folder.

Written with the official ``mcp`` SDK (``pip install 'artemiskit[mcp]'``). It offers
three tools; the example workflow declares two of them, so the model is never
offered ``erase_notes``.
"""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import MCPServer

NOTES = Path(__file__).resolve().parent / "notes"
app = MCPServer("notes")


@app.tool()
def list_notes() -> list[str]:
    """List the names of every note."""
    return sorted(path.stem for path in NOTES.glob("*.txt"))


@app.tool()
def read_note(name: str) -> str:
    """Read the note called ``name``."""
    return (NOTES / f"{name}.txt").read_text(encoding="utf-8")


@app.tool()
def erase_notes() -> str:
    """Erase every note (the example workflow never declares this tool)."""
    return "not erased: this example keeps its notes"


if __name__ == "__main__":
    app.run()
