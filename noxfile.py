"""Developer sessions; `python -m nox` runs every default session.

Sessions run in the current interpreter (``venv_backend="none"``): `scripts/test.sh`
installs the project and its test extras first, so nox adds no second install.
"""

from __future__ import annotations

import importlib.util

import nox

nox.options.sessions = ["lint", "types", "tests", "examples"]
nox.options.default_venv_backend = "none"
nox.options.error_on_missing_interpreters = True

LINTED = [
    "artemiskit",
    "artemiskit_cli",
    "artemiskit_pytest",
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


#: Two pytest-xdist workers (the CI machine has 2 cores); tests sharing one daemon
#: or cluster carry an xdist_group (tests/conftest.py), and ``loadgroup`` runs each
#: group on one worker. ``nox -s tests -- -n 0`` runs in one process.
PARALLEL = ["-n", "2", "--dist", "loadgroup"]


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite, on two workers; every async test runs on asyncio and trio."""
    session.run(
        "pytest",
        *PARALLEL,
        "--ignore=tests/examples",
        *session.posargs,
        external=True,
    )


@nox.session
def examples(session: nox.Session) -> None:
    """Run every example and docs snippet as a user would, on two workers."""
    session.run("pytest", *PARALLEL, "tests/examples", *session.posargs, external=True)


@nox.session(default=False)
def benchmarks(session: nox.Session) -> None:
    """Measure engine overhead and write docs/performance.md (not part of tests)."""
    session.run("python", "-m", "benchmarks", *session.posargs, external=True)


MUTMUT = "mutmut>=3.8,<4"


@nox.session(default=False)
def mutation(session: nox.Session) -> None:
    """Mutation testing of the safety-critical modules (slow; docs/testing.md).

    ``nox -s mutation`` mutates every module of ``[tool.mutmut] only_mutate`` in
    pyproject.toml; ``nox -s mutation -- "artemiskit.tools._tool*"`` only that
    module's mutants. Each mutant runs only the tests that executed the mutated
    function, at the lowest CPU priority, and the per-module table is printed last.
    Results stay in ``mutants/`` (ignored by git), so a second run resumes.

    ``nox -s mutation -- --sample 80 --seed 20261203 ["artemiskit/suites/*"]`` runs
    a seeded random sample of 80 mutants of each larger module (every mutant of a
    smaller one) through ``scripts/mutation_sample.py``; the table then gives each
    sampled module's score with its 95% Wilson interval.
    """
    if importlib.util.find_spec("mutmut") is None:
        session.run("python", "-m", "pip", "install", "--quiet", MUTMUT, external=True)
    if any(arg.startswith(("--sample", "--seed")) for arg in session.posargs):
        session.run(
            "python", "scripts/mutation_sample.py", *session.posargs, external=True
        )
    else:
        session.run(
            "nice",
            "-n",
            "19",
            "python",
            "-m",
            "mutmut",
            "run",
            *session.posargs,
            external=True,
        )
    session.run("python", "scripts/mutation_report.py", external=True)
