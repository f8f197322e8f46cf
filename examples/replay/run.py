"""Record once, replay in CI: a suite recorded against a model, replayed offline.

1. A stochastic model starts on 127.0.0.1 (`model_server.py`, standing in for a
   real one) and the suite runs three times against it, keeping every model
   exchange in a cassette per run (``record_cassettes=``).
2. The model stops. The suite runs again from the cassettes alone (``replay=``):
   no connection, no credential, no cost, and the same verdicts and records.

Run it with ``python examples/replay/run.py``; it prints each side's verdicts.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import anyio

from artemiskit import ArtemisKit

HERE = Path(__file__).parent


def _config(folder: Path, base_url: str) -> Path:
    path = folder / "artemis.config.yaml"
    entry = {"type": "openai", "base_url": base_url, "api_key_env": "DEMO_KEY"}
    path.write_text(json.dumps({"providers": {"local": entry}}), encoding="utf-8")
    return path


def _verdicts(folder: Path) -> list[tuple[str, str]]:
    records = sorted((folder / "runs").rglob("*.record.json"))
    return [
        (path.name, json.loads(path.read_text())["verdict"]["status"])
        for path in records
    ]


async def main() -> None:
    from examples.replay.model_server import serve

    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        cassettes = work / "cassettes"
        server = serve()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/v1"
            os.environ["DEMO_KEY"] = "demo-key"  # the loopback model checks none
            kit = ArtemisKit(config=_config(work, url))
            await kit.run_suite(
                paths=HERE / "workflow.yaml",
                repeat=3,
                output_dir=work / "recorded",
                record_cassettes=cassettes,
            )
        finally:
            server.shutdown()
            server.server_close()
        del os.environ["DEMO_KEY"]  # a replay needs no credential
        replayed = await ArtemisKit().run_suite(
            paths=HERE / "workflow.yaml",
            repeat=3,
            output_dir=work / "replayed",
            replay=cassettes,
        )
        recorded_verdicts = _verdicts(work / "recorded")
        replayed_verdicts = _verdicts(work / "replayed")
        print("recorded:", recorded_verdicts)
        print("replayed:", replayed_verdicts)
        assert replayed_verdicts == recorded_verdicts
        print(f"exit code: {replayed.exit_code}")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(HERE.parents[1]))
    anyio.run(main)
