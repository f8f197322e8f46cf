"""``akit report``: offline assessment views of saved suites and records (SPEC 14).

``akit report PATH...`` renders a suite folder, a ``suite.json`` or record files;
``akit report compare BASELINE CANDIDATE`` compares two suites (``--targets A B``,
two targets of one suite). Both only read saved files.
``akit report RUN_ID|MANIFEST`` (one argument that is a stored prompt-response run
id or a run manifest file) hands over to the prompt-response report of SPEC 17
(`artemiskit_cli._commands.run_report`). The report code (and Jinja2 and
matplotlib, for HTML) is imported only when a report is made, so ``akit --help``
and ``akit scenario validate`` never pay for it.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import anyio
import click

from artemiskit import ExitCode
from artemiskit_cli._errors import reports_errors
from artemiskit_cli._outputs import check_new_outputs, write_new_file
from artemiskit_cli._params import FiniteFloatRange, PathParam
from artemiskit_cli._render import printable

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["is_prompt_response_run", "make_comparison", "make_report", "report"]

_SENSITIVE_MODE = 0o600
#: One output: its path, what it is (for the message), its renderer, its mode.
_Output = tuple[str, str, "Callable[[], str]", int]


class _ReportGroup(click.Group):
    """A group that is also a command: ``report PATH...`` or ``report compare``."""

    allow_interspersed_args = True

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in self.commands:
            for param in self.get_params(ctx):
                if param.expose_value and param.name is not None:
                    ctx.params.setdefault(param.name, param.get_default(ctx))
            ctx._protected_args, ctx.args = args[:1], args[1:]
            return ctx.args
        return click.Command.parse_args(self, ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [
            "[OPTIONS] PATH...",
            "|",
            "compare (BASELINE CANDIDATE | SUITE --targets A B) [OPTIONS]",
        ]


def is_prompt_response_run(given: str) -> bool:
    """Whether ``given`` names a prompt-response run: an id, or a manifest file.

    A name that is no existing file or folder and holds no path separator is a
    run id; an existing file is a manifest when it reads as one. Anything else is
    left to the workflow evidence reader, which says what it is.
    """
    if not os.path.lexists(given):
        return os.sep not in given and not given.endswith(".json")
    from artemiskit.prompt_response import is_manifest_file

    return os.path.isfile(given) and is_manifest_file(given)


def make_report(
    paths: tuple[str, ...],
    *,
    html: str | None,
    markdown: str | None,
    transcripts: str | None,
) -> int:
    """Read the evidence, write the views asked for, and say where they are.

    Without ``--html`` or ``--markdown`` the Markdown goes to stdout.

    Returns:
        The exit code: 0.
    """
    from artemiskit.reports import (
        load_report_input,
        report_html,
        report_markdown,
        require_report_extra,
    )

    check_new_outputs(html, markdown)
    if html is not None:
        require_report_extra()
    evidence = anyio.run(
        lambda: load_report_input(list(paths), transcripts=transcripts)
    )
    if html is None and markdown is None:
        click.echo(report_markdown(evidence), nl=False)
        return ExitCode.OK
    sensitive = evidence.transcripts is not None
    outputs: list[_Output] = []
    if html is not None:
        mode = _SENSITIVE_MODE if sensitive else 0o644
        outputs.append((html, "html report", lambda: report_html(evidence), mode))
    if markdown is not None:
        outputs.append(
            (markdown, "markdown report", lambda: report_markdown(evidence), 0o644)
        )
    written = _write_outputs(outputs)
    if sensitive and html in written:
        click.echo(
            "note: the HTML report holds transcripts (sensitive data); "
            "it was written with mode 0600",
            err=True,
        )
    return ExitCode.OK


def _write_outputs(outputs: list[_Output]) -> list[str]:
    """Render and write each output; one that fails never costs the others.

    Returns:
        The paths written.

    Raises:
        ArtemisError: The first output that could not be rendered or written,
            once every other output was written.
    """
    from artemiskit import ArtemisError

    written: list[str] = []
    failure: ArtemisError | None = None
    for path, what, render, mode in outputs:
        try:
            write_new_file(path, render().encode("utf-8"), mode=mode)
        except ArtemisError as exc:
            failure = failure or exc
            continue
        written.append(path)
        click.echo(f"{what}: {printable(path)}", err=True)
    if failure is not None:
        raise failure
    return written


def make_comparison(
    baseline: str,
    candidate: str | None,
    *,
    html: str | None,
    markdown: str | None,
    max_drop: float | None,
    alpha: float = 0.05,
    targets: tuple[str, str] | None = None,
    json_path: str | None = None,
) -> int:
    """Compare two suites (or two targets of one), write the views, list regressions.

    Returns:
        The exit code: 8 when a workflow or unit regressed, else 0.
    """
    from artemiskit.reports import (
        compare_reports,
        compare_targets,
        comparison_dict,
        comparison_html,
        comparison_markdown,
        load_report_input,
        require_report_extra,
    )

    check_new_outputs(html, markdown, json_path)
    if html is not None:
        require_report_extra()

    async def load() -> tuple[Any, Any]:
        return (
            await load_report_input([baseline]),
            None if candidate is None else await load_report_input([candidate]),
        )

    base, cand = anyio.run(load)
    if targets is not None:
        comparison = compare_targets(
            base, targets[0], targets[1], max_drop=max_drop, alpha=alpha
        )
    else:
        comparison = compare_reports(base, cand, max_drop=max_drop, alpha=alpha)
    if html is None and markdown is None and json_path is None:
        click.echo(comparison_markdown(comparison), nl=False)
    outputs: list[_Output] = []
    if html is not None:
        outputs.append(
            (html, "html comparison", lambda: comparison_html(comparison), 0o644)
        )
    if markdown is not None:
        outputs.append(
            (
                markdown,
                "markdown comparison",
                lambda: comparison_markdown(comparison),
                0o644,
            )
        )
    if json_path is not None:
        outputs.append(
            (
                json_path,
                "json comparison",
                lambda: json.dumps(comparison_dict(comparison), indent=2) + "\n",
                0o644,
            )
        )
    _write_outputs(outputs)
    for row in comparison.rows:
        if row.regressed:
            click.echo(
                f"regressed: {click.style(printable(row.label), bold=True)} "
                f"{row.baseline_passed}/{row.baseline_judged} -> "
                f"{row.candidate_passed}/{row.candidate_judged} "
                f"({row.test}, p (Holm) "
                + ("n/a" if row.p_adjusted is None else f"{row.p_adjusted:.4f}")
                + ")",
                err=True,
            )
    return comparison.exit_code


_OUTPUT = PathParam(readable=False, dir_okay=False)
_INPUT = PathParam(readable=False)


@click.group(cls=_ReportGroup, invoke_without_command=True)
@click.argument("paths", nargs=-1, type=_INPUT)
@click.option("--html", type=_OUTPUT, help="Write the HTML report here (a new path).")
@click.option(
    "--markdown", type=_OUTPUT, help="Write the Markdown report here (a new path)."
)
@click.option(
    "--transcripts",
    type=PathParam(readable=False, file_okay=False),
    help="Show the transcripts in this folder (sensitive: the page is marked so).",
)
@click.option(
    "--json",
    "json_path",
    type=_OUTPUT,
    help="Prompt-response runs: write the manifest as pretty JSON to this new file.",
)
@click.option(
    "--config",
    "config_path",
    type=PathParam(dir_okay=False),
    help="Prompt-response runs: the configuration that names the store.",
)
@click.pass_context
@reports_errors
def report(
    ctx: click.Context,
    paths: tuple[str, ...],
    html: str | None,
    markdown: str | None,
    transcripts: str | None,
    json_path: str | None,
    config_path: str | None,
) -> None:
    """Render saved evidence: a suite folder, a suite.json or record files.

    Reads saved files only, offline. `akit report compare BASELINE CANDIDATE`
    compares two suites. `akit report RUN_ID|MANIFEST` reports a stored
    prompt-response run (HTML and JSON).
    """
    if ctx.invoked_subcommand is not None:
        return
    if not paths:
        raise click.UsageError("give a suite folder, a suite.json or record files")
    if len(paths) == 1 and is_prompt_response_run(paths[0]):
        if markdown is not None or transcripts is not None:
            raise click.UsageError(
                "--markdown and --transcripts apply to workflow evidence, "
                "not to a prompt-response run"
            )
        from artemiskit_cli._commands.run_report import report_manifest

        ctx.exit(report_manifest(paths[0], html, json_path, config_path=config_path))
    if json_path is not None or config_path is not None:
        raise click.UsageError(
            "--json and --config apply to a prompt-response run (RUN_ID|MANIFEST)"
        )
    ctx.exit(make_report(paths, html=html, markdown=markdown, transcripts=transcripts))


@report.command()
@click.argument("baseline", type=_INPUT)
@click.argument("candidate", type=_INPUT, required=False)
@click.option("--html", type=_OUTPUT, help="Write the HTML comparison here.")
@click.option("--markdown", type=_OUTPUT, help="Write the Markdown comparison here.")
@click.option(
    "--json",
    "json_path",
    type=_OUTPUT,
    help="Write the comparison as JSON here (every row, its test and why).",
)
@click.option(
    "--targets",
    nargs=2,
    type=str,
    metavar="A B",
    help="Compare target A (baseline) with target B (candidate) inside one suite.",
)
@click.option(
    "--max-drop",
    type=FiniteFloatRange(0, 1),
    help="Also flag a workflow whose pass rate drops by more than this (0-1).",
)
@click.option(
    "--alpha",
    default=0.05,
    show_default=True,
    type=FiniteFloatRange(0, 1, min_open=True, max_open=True),
    help="Family-wise significance level (Holm's step-down over the rows).",
)
@reports_errors
def compare(
    baseline: str,
    candidate: str | None,
    html: str | None,
    markdown: str | None,
    json_path: str | None,
    targets: tuple[str, str] | None,
    max_drop: float | None,
    alpha: float,
) -> None:
    """Compare two suites, or two targets of one suite; exit 8 on regression.

    Units are paired where they can be (the same cases on both sides): McNemar's
    exact test or the paired t-test; otherwise Fisher's exact test. Holm's
    step-down decides over every row whose candidate is lower.
    """
    if targets is not None and candidate is not None:
        raise click.UsageError(
            "--targets compares two targets inside one suite: give one suite"
        )
    if targets is None and candidate is None:
        raise click.UsageError(
            "give BASELINE and CANDIDATE, or one suite with --targets A B"
        )
    code = make_comparison(
        baseline,
        candidate,
        html=html,
        markdown=markdown,
        max_drop=max_drop,
        alpha=alpha,
        targets=targets,
        json_path=json_path,
    )
    click.get_current_context().exit(code)
