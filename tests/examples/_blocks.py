"""The fenced blocks of README.md and docs/*.md, and the CLI as `akit --help` shows it.

A block's info string is ``LANGUAGE`` optionally followed by ``norun: REASON``; a
block marked ``norun`` is shown, not exercised, and the reason says why.
"""

from __future__ import annotations

import functools
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from tests._cli import akit

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted(ROOT.glob("docs/*.md"))]

FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.S | re.M,
)
NORUN = re.compile(r"\bnorun:\s*(?P<reason>.*)$")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, and its text."""

    page: Path
    line: int
    language: str
    norun: str | None
    body: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"


def _dedent(body: str, indent: str) -> str:
    return "".join(
        line[len(indent) :] if line.startswith(indent) else line
        for line in body.splitlines(keepends=True)
    )


def page_blocks(page: Path) -> list[Block]:
    """Every fenced block of ``page``, in order."""
    text = page.read_text("utf-8")
    found: list[Block] = []
    for match in FENCE.finditer(text):
        info = match["info"].strip()
        norun = NORUN.search(info)
        found.append(
            Block(
                page=page,
                line=text[: match.start()].count("\n") + 1,
                language=info.split(" ", 1)[0] if info else "",
                norun=norun["reason"].strip() if norun else None,
                body=_dedent(match["body"], match["indent"]),
            )
        )
    return found


def all_blocks() -> list[Block]:
    """Every fenced block of README.md and docs/*.md."""
    return [block for page in PAGES for block in page_blocks(page)]


# --- shell commands -------------------------------------------------------------


def _logical_lines(lines: list[str]) -> list[str]:
    """Join backslash-continued lines."""
    joined: list[str] = []
    pending = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
        else:
            joined.append(pending + line)
            pending = ""
    if pending:
        joined.append(pending)
    return joined


@dataclass(frozen=True)
class Command:
    """One simple command of a shell block, and the output shown after it."""

    words: tuple[str, ...]
    output: tuple[str, ...] = field(default=())


def _simple_commands(line: str) -> list[tuple[str, ...]]:
    """Split one shell line on ``&&``, ``||``, ``;`` and ``|``; comments removed."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    commands: list[tuple[str, ...]] = []
    current: list[str] = []
    try:
        tokens = list(lexer)
    except ValueError:  # quoting across lines: `bash -n` still checks the block
        return []
    for token in tokens:
        if token in (";", "&&", "||", "|", "&"):
            commands.append(tuple(current))
            current = []
        else:
            current.append(token)
    commands.append(tuple(current))
    return [command for command in commands if command]


def shell_commands(block: Block) -> list[Command]:
    """The commands of a ``console`` (``$ `` prompts) or ``sh``/``bash`` block."""
    lines = block.body.splitlines()
    if block.language != "console":
        return [
            Command(words=words)
            for line in _logical_lines(lines)
            for words in _simple_commands(line)
        ]
    commands: list[Command] = []
    cursor = 0
    while cursor < len(lines):
        if not lines[cursor].startswith("$ "):
            cursor += 1
            continue
        text = [lines[cursor][2:]]
        while text[-1].rstrip().endswith("\\") and cursor + 1 < len(lines):
            cursor += 1
            text.append(lines[cursor])
        cursor += 1
        output: list[str] = []
        while cursor < len(lines) and not lines[cursor].startswith("$ "):
            output.append(lines[cursor])
            cursor += 1
        for line in _logical_lines(text):
            commands += [
                Command(words=words, output=tuple(output))
                for words in _simple_commands(line)
            ]
    return commands


# --- the CLI as `akit --help` shows it ------------------------------------------


@dataclass(frozen=True)
class CliCommand:
    """One command of ``akit``: its options (name → takes a value) and subcommands."""

    path: tuple[str, ...]
    options: dict[str, bool]
    subcommands: tuple[str, ...]
    #: A group that also runs itself with arguments (``akit report PATH...``).
    takes_arguments: bool = False

    @property
    def name(self) -> str:
        return " ".join(("akit", *self.path))


def _section(help_text: str, title: str) -> list[str]:
    lines = help_text.splitlines()
    if f"{title}:" not in lines:
        return []
    body: list[str] = []
    for line in lines[lines.index(f"{title}:") + 1 :]:
        if line and not line.startswith(" "):
            break
        body.append(line)
    return body


def parse_help(path: tuple[str, ...], help_text: str) -> CliCommand:
    """Read the options and subcommands out of click's ``--help`` output."""
    options: dict[str, bool] = {}
    for line in _section(help_text, "Options"):
        if not re.match(r"^  -", line):
            continue
        declaration = re.split(r"\s{2,}", line.strip())[0]
        words = declaration.replace(",", " ").split()
        names = [w for w in words if w.startswith("-")]
        takes_value = any(not w.startswith("-") and w != "/" for w in words)
        options.update(dict.fromkeys(names, takes_value))
    subcommands = tuple(
        line.split()[0]
        for line in _section(help_text, "Commands")
        if re.match(r"^  \S", line)
    )
    usage = help_text.split("\n\n", 1)[0].split("[OPTIONS]", 1)[-1]
    placeholders = set(re.findall(r"\b[A-Z][A-Z_]+\b", usage)) - {"COMMAND", "ARGS"}
    return CliCommand(
        path=path,
        options=options,
        subcommands=subcommands,
        takes_arguments=bool(subcommands and placeholders),
    )


@functools.cache
def cli_commands() -> dict[tuple[str, ...], CliCommand]:
    """Every command and group of ``akit``, read from ``akit ... --help``."""
    found: dict[tuple[str, ...], CliCommand] = {}
    pending: list[tuple[str, ...]] = [()]
    while pending:
        path = pending.pop()
        done = akit(*path, "--help", cwd=ROOT)
        assert done.returncode == 0, done.stderr
        command = parse_help(path, done.stdout)
        found[path] = command
        pending += [(*path, sub) for sub in command.subcommands]
    return found


def find_akit_command(words: tuple[str, ...]) -> tuple[CliCommand, list[str]]:
    """The command ``akit ...`` words name, and the words after its name."""
    assert words[:1] == ("akit",), words
    commands = cli_commands()
    path: tuple[str, ...] = ()
    rest = list(words[1:])
    while rest and (*path, rest[0]) in commands:
        path = (*path, rest.pop(0))
    return commands[path], rest


@dataclass(frozen=True)
class Invocation:
    """An ``akit`` command line resolved against the CLI."""

    command: CliCommand
    options: dict[str, str | None]
    arguments: tuple[str, ...]


def resolve_akit(words: tuple[str, ...]) -> Invocation:
    """Resolve ``akit ...`` words against the CLI.

    Raises:
        AssertionError: An unknown command or option, or an option without its value.
    """
    command, rest = find_akit_command(words)
    options: dict[str, str | None] = {}
    arguments: list[str] = []
    while rest:
        word = rest.pop(0)
        if not word.startswith("-") or word == "-":
            arguments.append(word)
            continue
        name, _, inline = word.partition("=")
        assert name in command.options, f"{command.name} has no option {name}"
        if command.options[name]:
            assert inline or rest, f"{command.name} {name} needs a value"
            options[name] = inline or rest.pop(0)
        else:
            options[name] = None
    if command.subcommands and not command.takes_arguments:
        assert not arguments, f"{command.name} has no subcommand {arguments[0]!r}"
    return Invocation(command=command, options=options, arguments=tuple(arguments))
