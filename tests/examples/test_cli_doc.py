"""docs/cli.md and ``akit ... --help`` agree, so the reference cannot drift.

For every command: it has a section (``## `akit PATH ...` ``) and a synopsis line;
every option its ``--help`` lists is in its section's table and its synopsis; and
every option the page documents for it exists. ``-h``/``--help`` is documented once,
under ``akit``.
"""

from __future__ import annotations

import re

import pytest

from tests.examples._blocks import ROOT, CliCommand, cli_commands, page_blocks

DOC = ROOT / "docs" / "cli.md"
HELP = {"-h", "--help"}
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def sections() -> dict[tuple[str, ...], str]:
    """Section text by the command path its heading names."""
    found: dict[tuple[str, ...], str] = {}
    parts = re.split(r"^## ", DOC.read_text("utf-8"), flags=re.M)
    for part in parts[1:]:
        heading, _, body = part.partition("\n")
        named = re.match(r"`akit((?: [a-z][\w-]*)*)", heading)
        if named:
            found[tuple(named[1].split())] = body
    return found


def table_options(section: str) -> set[str]:
    """Options in the first column of the section's tables."""
    return {
        option
        for line in section.splitlines()
        if line.startswith("| `")
        for option in OPTION.findall(line.split("|")[1])
    }


def synopsis() -> dict[tuple[str, ...], set[str]]:
    """Options per command in the page's first (synopsis) block."""
    block = page_blocks(DOC)[0]
    assert block.language == "text"
    commands = cli_commands()
    found: dict[tuple[str, ...], set[str]] = {}
    current: tuple[str, ...] = ()
    for line in block.body.splitlines():
        if line.startswith("akit"):
            words = line.split()[1:]
            current = ()
            while words and (*current, words[0]) in commands:
                current = (*current, words.pop(0))
        found.setdefault(current, set()).update(OPTION.findall(line))
    return found


def leaves() -> list[CliCommand]:
    return [
        c for c in cli_commands().values() if not c.subcommands or c.takes_arguments
    ]


def test_the_cli_has_the_commands_of_the_spec() -> None:
    names = {command.name for command in cli_commands().values()}
    assert names >= {
        "akit",
        "akit scenario validate",
        "akit workflow run",
        "akit workflow preflight",
        "akit workflow resume",
    }


def test_help_options_are_documented_under_akit() -> None:
    assert table_options(sections()[()]) >= HELP
    assert all(set(c.options) >= HELP for c in cli_commands().values())


@pytest.mark.parametrize("command", leaves(), ids=lambda c: c.name)
def test_every_listed_option_is_documented(command: CliCommand) -> None:
    section = sections().get(command.path)
    assert section is not None, f"docs/cli.md has no section for `{command.name}`"
    listed = set(command.options) - HELP
    assert listed - table_options(section) == set(), command.name
    assert listed - synopsis().get(command.path, set()) == set(), command.name


@pytest.mark.parametrize("command", cli_commands().values(), ids=lambda c: c.name)
def test_every_documented_option_exists(command: CliCommand) -> None:
    section = sections().get(command.path, "")
    documented = table_options(section) | synopsis().get(command.path, set())
    assert documented - set(command.options) == set(), command.name


def test_every_option_on_the_page_exists_somewhere() -> None:
    known = {option for c in cli_commands().values() for option in c.options}
    text = DOC.read_text("utf-8")
    mentioned = set(re.findall(r"`(--?[A-Za-z][\w-]*)", text))
    assert mentioned - known == set()


def test_every_section_names_a_command() -> None:
    assert set(sections()) <= set(cli_commands())
