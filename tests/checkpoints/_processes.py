"""Drive `akit` and small SDK scripts as real processes over checkpointed runs.

`Case` writes a workflow and its script into a folder and runs the CLI there;
`Running` is a started process whose stderr lines are collected by a thread, so a
test can wait for a readiness line ("admitted: write_file") instead of sleeping.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import attrs

from tests._builders import write_workflow

REPO_ROOT = Path(__file__).resolve().parents[2]
AKIT = (sys.executable, "-m", "artemiskit_cli")
#: Generous bound for one process; a test never relies on it for synchronisation.
PROCESS_TIMEOUT_S = 120
#: Record fields that differ between two runs of the same logical execution.
VOLATILE = ("run_id", "attempt_id", "events", "recovery")


def child_env() -> dict[str, str]:
    """The environment of a child process: this checkout first on the path."""
    path = os.environ.get("PYTHONPATH")
    joined = str(REPO_ROOT) if not path else f"{REPO_ROOT}{os.pathsep}{path}"
    return {**os.environ, "PYTHONPATH": joined}


@attrs.frozen
class Done:
    """A finished process."""

    code: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        return f"exit {self.code}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}"


class Running:
    """A started process; stderr (and stdout) are read by threads, line by line."""

    def __init__(self, command: list[str], *, cwd: Path) -> None:
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=child_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._lines: list[str] = []
        self._out: list[str] = []
        self._changed = threading.Condition()
        self._eof = False
        assert self.process.stderr is not None
        assert self.process.stdout is not None
        self._threads = [
            threading.Thread(target=self._read, args=(self.process.stderr, True)),
            threading.Thread(target=self._read, args=(self.process.stdout, False)),
        ]
        for thread in self._threads:
            thread.daemon = True
            thread.start()

    def _read(self, stream: IO[str], is_stderr: bool) -> None:
        for line in stream:
            with self._changed:
                (self._lines if is_stderr else self._out).append(line)
                self._changed.notify_all()
        if is_stderr:
            with self._changed:
                self._eof = True
                self._changed.notify_all()

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        """Whether the process has ended (without waiting)."""
        return self.process.poll() is not None

    def wait_for(self, text: str, timeout: float = PROCESS_TIMEOUT_S) -> str:
        """Block until a stderr line contains ``text``; fail if stderr ends first."""
        with self._changed:
            seen = 0
            while True:
                for line in self._lines[seen:]:
                    if text in line:
                        return line
                seen = len(self._lines)
                if self._eof:
                    raise AssertionError(
                        f"process ended without {text!r}:\n" + "".join(self._lines)
                    )
                if not self._changed.wait(timeout):
                    raise AssertionError(f"no {text!r} within {timeout} s")

    def finish(self, timeout: float = PROCESS_TIMEOUT_S) -> Done:
        """Wait for the exit and return everything the process printed."""
        code = self.process.wait(timeout)
        for thread in self._threads:
            thread.join(timeout)
        for stream in (self.process.stdout, self.process.stderr):
            assert stream is not None
            stream.close()
        with self._changed:
            return Done(code, "".join(self._out), "".join(self._lines))


def run_process(command: list[str], *, cwd: Path) -> Done:
    """Run ``command`` to completion."""
    done = subprocess.run(
        command,
        cwd=cwd,
        env=child_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT_S,
        check=False,
    )
    return Done(done.returncode, done.stdout, done.stderr)


class Case:
    """One workflow + script in its own folder, checkpointing into ``ckpt``."""

    def __init__(
        self,
        folder: Path,
        workflow: dict[str, Any],
        script: list[dict[str, Any]],
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.workflow = workflow
        self.script = script
        self.path = write_workflow(folder, workflow, script)
        self.checkpoint = folder / "ckpt"
        self._outputs = 0

    def rewrite(
        self,
        workflow: dict[str, Any] | None = None,
        script: list[dict[str, Any]] | None = None,
    ) -> None:
        """Replace the workflow and/or the script on disk (same file names)."""
        self.workflow = workflow if workflow is not None else self.workflow
        self.script = script if script is not None else self.script
        write_workflow(self.folder, self.workflow, self.script)

    def new_output(self, stem: str) -> Path:
        self._outputs += 1
        return self.folder / f"{stem}-{self._outputs}.json"

    def command(self, verb: str, *extra: str) -> list[str]:
        """``akit workflow VERB workflow.yaml`` (+ the checkpoint dir) + ``extra``."""
        command = [*AKIT, "workflow", verb, str(self.path)]
        if verb == "resume" and "--checkpoint-dir" not in extra:
            command += ["--checkpoint-dir", str(self.checkpoint)]
        return command + list(extra)

    def start(self, verb: str, *extra: str) -> Running:
        return Running(self.command(verb, *extra), cwd=self.folder)

    def akit(self, verb: str, *extra: str) -> Done:
        return run_process(self.command(verb, *extra), cwd=self.folder)

    def run(self, *extra: str, pause_after: int | None = None) -> tuple[Done, Any]:
        """A checkpointed run (pausing after ``pause_after`` actions) + its record."""
        output = self.new_output("run")
        args = ["--checkpoint-dir", str(self.checkpoint), "--output", str(output)]
        if pause_after is not None:
            args += ["--pause-after-actions", str(pause_after)]
        done = self.akit("run", *args, *extra)
        return done, read_json(output)

    def resume(self, *extra: str, pause_after: int | None = None) -> tuple[Done, Any]:
        """``akit workflow resume`` + its record (``None`` when none was written)."""
        output = self.new_output("resume")
        args = ["--output", str(output)]
        if pause_after is not None:
            args += ["--pause-after-actions", str(pause_after)]
        done = self.akit("resume", *args, *extra)
        return done, read_json(output)

    def uninterrupted(self, *extra: str) -> tuple[Done, Any, Any]:
        """A plain run without a checkpoint: its record and final state."""
        output = self.new_output("plain")
        state = self.new_output("plain-state")
        done = self.akit(
            "run", "--output", str(output), "--state-output", str(state), *extra
        )
        return done, read_json(output), read_json(state)


def read_json(path: Path) -> Any:
    """The JSON in ``path``, or ``None`` when the file does not exist."""
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what differs between attempts and runs (ids, timings)."""
    kept = {k: v for k, v in record.items() if k not in VOLATILE}
    kept["execution"] = {
        k: v
        for k, v in record["execution"].items()
        if k not in ("duration_ms", "started_at", "finished_at")
    }
    return kept


def fingerprint(directory: Path) -> dict[str, tuple[int, bytes]]:
    """Every checkpoint file under ``directory``: relative path → (mode, bytes).

    The process claim is left out: a refused resume may take over (and release)
    the claim a killed owner left, which is not checkpoint content.
    """
    found: dict[str, tuple[int, bytes]] = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.name != "claim.lock":
            found[path.relative_to(directory).as_posix()] = (
                path.stat().st_mode & 0o7777,
                path.read_bytes(),
            )
    return found
