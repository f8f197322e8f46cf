"""Re-record ``cassettes/`` (the example's committed cassette) against the model.

The committed cassette is bound to the workflow's contract digest: after a change
to ``workflow.yaml`` (or to what the contract holds), record it again with
``python examples/replay/record.py``. It starts the loopback model of
`model_server.py`, runs the workflow once and keeps its cassette in
``cassettes/replay-demo/001.cassette.jsonl``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import anyio

HERE = Path(__file__).parent


async def main() -> None:
    from artemiskit import ArtemisKit
    from examples.replay.model_server import serve

    target = HERE / "cassettes"
    shutil.rmtree(target, ignore_errors=True)
    server = serve()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            config = Path(scratch) / "artemis.config.yaml"
            url = f"http://127.0.0.1:{server.server_address[1]}/v1"
            entry = {"type": "openai", "base_url": url, "api_key_env": "DEMO_KEY"}
            config.write_text(json.dumps({"providers": {"local": entry}}))
            os.environ["DEMO_KEY"] = "demo-key"
            result = await ArtemisKit(config=config).run_suite(
                paths=HERE / "workflow.yaml", record_cassettes=target
            )
    finally:
        server.shutdown()
        server.server_close()
    print(f"recorded {target}: exit code {result.exit_code}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))
    anyio.run(main)
