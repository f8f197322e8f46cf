"""Developer sessions; `python -m nox` runs every default session.

Sessions run in the current interpreter (``venv_backend="none"``): `scripts/test.sh`
installs the project and its test extras first, so nox adds no second install.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "types", "tests", "examples"]
nox.options.default_venv_backend = "none"
nox.options.error_on_missing_interpreters = True

LINTED = [
    "artemiskit",
    "artemiskit_cli",
    "tests",
    "examples",
    "benchmarks",
    "noxfile.py",
]


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check."""
    session.run("ruff", "check", *LINTED)
    session.run("ruff", "format", "--check", *LINTED)


@nox.session
def types(session: nox.Session) -> None:
    """mypy --strict over the SDK, the CLI, the tests and the examples."""
    session.run("mypy")


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite; every async test runs on asyncio and on trio."""
    session.run("pytest", "--ignore=tests/examples", *session.posargs, external=True)


@nox.session
def examples(session: nox.Session) -> None:
    """Run every example and docs snippet as a user would."""
    session.run("pytest", "tests/examples", *session.posargs, external=True)


@nox.session(default=False)
def benchmarks(session: nox.Session) -> None:
    """Measure engine overhead and write docs/performance.md (not part of tests)."""
    session.run("python", "-m", "benchmarks", *session.posargs, external=True)
