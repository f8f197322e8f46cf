"""``akit report RUN_ID|MANIFEST``: the HTML and JSON report of a prompt-response run.

`report_manifest` does the work, so that one ``akit report`` command can dispatch
to it when its argument is a run id or a manifest (workflow records and suites go
to the workflow reports). Without ``--html`` or ``--json`` it writes
``artemis-output/<run_id>.html``, as the TypeScript CLI did. A manifest is a file
a person may have edited, so its run id must be a run id (1 to 64 letters, digits,
``-`` or ``_``, as the store requires) before it names a file; and the command
never replaces or deletes a file: every output, the default one included, must
be new.
"""

from __future__ import annotations

import json
import os
import sys

import click

from artemiskit import ArtemisError, FileAccessError, UnsupportedError
from artemiskit.prompt_response import PromptResponseExitCode, manifest_to_dict
from artemiskit.reports import render_run_report
from artemiskit_cli._commands.runs import CONFIG_OPTION, load_run, storage_for
from artemiskit_cli._outputs import check_new_outputs, write_new_file
from artemiskit_cli._params import PathParam
from artemiskit_cli._render import printable

__all__ = ["report", "report_manifest"]

DEFAULT_FOLDER = "artemis-output"
_RUN_ID_CHARACTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
)
_MAX_RUN_ID = 64


def _is_run_id(text: str) -> bool:
    """Whether ``text`` is a run id the store accepts, so a safe file name."""
    return 0 < len(text) <= _MAX_RUN_ID and set(text) <= _RUN_ID_CHARACTERS


def report_manifest(
    target: str,
    html_path: str | None,
    json_path: str | None,
    *,
    config_path: str | None = None,
) -> int:
    """Write the reports of run ``target`` (an id or a manifest file).

    Returns:
        The exit code (`PromptResponseExitCode`): ``OK`` written; ``FAILED`` not
        found, not writable or the report extra missing; ``WRONG_INPUT``
        ``target`` is a workflow record, suite or other file.
    """
    storage = storage_for(config_path)
    try:
        check_new_outputs(html_path, json_path)
    except FileAccessError as exc:
        click.echo(f"error: {printable(exc.message)}", err=True)
        return PromptResponseExitCode.FAILED
    try:
        manifest = load_run(storage, target)
    except SystemExit as exc:  # load_run has said why
        return int(exc.code or PromptResponseExitCode.FAILED)
    if not _is_run_id(manifest.run_id):
        click.echo(
            f"{printable(target)}: runId is not a run id (1 to {_MAX_RUN_ID} "
            "letters, digits, '-' or '_')",
            err=True,
        )
        return PromptResponseExitCode.WRONG_INPUT
    try:
        if html_path is None and json_path is None:
            html_path = os.path.join(DEFAULT_FOLDER, f"{manifest.run_id}.html")
            os.makedirs(DEFAULT_FOLDER, exist_ok=True)
            check_new_outputs(html_path)
        if html_path is not None:
            page = render_run_report(manifest).encode("utf-8")
            write_new_file(html_path, page, mode=0o600)
            click.echo(f"HTML report: {printable(html_path)}", err=True)
        if json_path is not None:
            text = json.dumps(manifest_to_dict(manifest), indent=2, ensure_ascii=False)
            write_new_file(json_path, text.encode("utf-8"), mode=0o600)
            click.echo(f"JSON report: {printable(json_path)}", err=True)
    except UnsupportedError as exc:
        click.echo(f"error: {printable(exc.message)}", err=True)
        return PromptResponseExitCode.FAILED
    except ArtemisError as exc:
        click.echo(f"error: {printable(exc.message)}", err=True)
        return PromptResponseExitCode.FAILED
    return PromptResponseExitCode.OK


@click.command("report")
@click.argument("target", metavar="RUN_ID|MANIFEST")
@click.option(
    "--html",
    "html_path",
    type=PathParam(dir_okay=False),
    help="Write the HTML report to this new file.",
)
@click.option(
    "--json",
    "json_path",
    type=PathParam(dir_okay=False),
    help="Write the manifest as pretty JSON to this new file.",
)
@CONFIG_OPTION
def report(
    target: str, html_path: str | None, json_path: str | None, config_path: str | None
) -> None:
    """Report a stored prompt-response run (HTML and JSON), offline."""
    sys.exit(report_manifest(target, html_path, json_path, config_path=config_path))
