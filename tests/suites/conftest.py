"""One local Ray cluster for the whole test session, bound to 127.0.0.1 (SPEC 15).

Started on first use by the Ray tests only (``ray start --head --block``, no
dashboard, no usage statistics, every listener on 127.0.0.1), stopped at the end
of the session by ending the process group it started. The test scripts install
Ray (``.[ray]``); a missing Ray is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Ray's own switch that keeps a node on the loopback address (without it Ray
#: replaces 127.0.0.1 with the machine's address and listens on every interface);
#: no usage statistics; no token file written to the home folder (the cluster is
#: reachable from this machine only).
LOOPBACK = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
}
#: The provider key the cluster's workers hold; the drivers in the tests do not.
WORKER_KEY = "sk-worker-SENTINEL-4b2e"
#: A header token each side holds in ``TEST_HEADER_TOKEN``: a run must use the
#: worker's (the driver's value never travels).
WORKER_TOKEN = "hdr-worker-SENTINEL-61d"
DRIVER_TOKEN = "hdr-driver-SENTINEL-0f8"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _ray() -> str:
    path = Path(sys.executable).parent / "ray"
    if not path.exists():
        pytest.fail("Ray is not installed: pip install -e '.[ray]' (scripts/test.sh)")
    return str(path)


@pytest.fixture(scope="session")
def ray_worker_tmp(ray_cluster: str) -> Path:
    """The temporary folder (``TMPDIR``) of the cluster's workers."""
    return _WORKER_TMP[ray_cluster]


_WORKER_TMP: dict[str, Path] = {}


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[str]:
    """The address (``127.0.0.1:PORT``) of a running local Ray cluster."""
    port = _free_port()
    scratch = tempfile.mkdtemp(prefix="akr-")
    worker_tmp = Path(scratch) / "tmp"
    worker_tmp.mkdir()
    env = {
        **os.environ,
        **LOOPBACK,
        "TEST_PROVIDER_KEY": WORKER_KEY,
        "TEST_HEADER_TOKEN": WORKER_TOKEN,
        "TMPDIR": str(worker_tmp),
    }
    log = open(Path(scratch) / "start.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [
            _ray(),
            "start",
            "--head",
            "--node-ip-address=127.0.0.1",
            f"--port={port}",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={scratch}",
            "--block",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    address = f"127.0.0.1:{port}"
    _WORKER_TMP[address] = worker_tmp
    try:
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import ray, sys; ray.init(address=sys.argv[1], log_to_driver=False);"
                " ray.shutdown()",
                address,
            ],
            env=env,
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert probe.returncode == 0, probe.stderr.decode()[-2000:]
        yield address
    finally:
        # `ray start --block` does not stop promptly on SIGTERM; the cluster is
        # scratch: its whole process group goes at once.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        log.close()
        shutil.rmtree(scratch, ignore_errors=True)
