"""Shared test configuration: both async backends, the groups of parallel runs, and
the Hypothesis profile.

Every async test runs on asyncio and on trio. CI runs the suite on two pytest-xdist
workers with ``--dist loadgroup`` (docs/testing.md): tests that share one daemon
or cluster carry an ``xdist_group``, so one worker runs them all and starts that
part once (one Ray cluster, one LiteLLM proxy, one Phoenix server, one user of the
Docker engine at a time).

Every ``suite.json`` a suite writes during a test (below the test's ``tmp_path``)
is read back through the typed loader and must encode to the same bytes: the
typed suite record holds exactly what is written.
"""

from __future__ import annotations

import multiprocessing.forkserver
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["pytester"]


def _forget_the_parents_fork_server() -> None:
    """In a forked child, start a fork server of its own when one is needed.

    The processes executor starts its workers from a fork server; a process
    forked after that (mutmut runs each mutant in a fork of the process that
    ran the clean tests) inherits the parent's server, which is not its child:
    `ensure_running` then fails with ``ChildProcessError`` and every test using
    worker processes fails, whatever the mutant (docs/testing.md).
    """
    server = multiprocessing.forkserver._forkserver
    for state in (
        "_forkserver_address",
        "_forkserver_alive_fd",
        "_forkserver_pid",
        "_inherited_fds",
    ):
        setattr(server, state, None)


os.register_at_fork(after_in_child=_forget_the_parents_fork_server)

#: The suite's Hypothesis profile outside CI: Hypothesis' defaults (example
#: counts, random examples, the example database) without the two checks that
#: time the machine rather than the code, a deadline per example and the
#: too-slow health check. On a loaded machine they failed property tests
#: (``DeadlineExceeded``, then ``Flaky`` when the replay was fast) that CI's
#: ``ci`` profile, which has neither, runs clean.
LOCAL_PROFILE = "artemiskit-local"
settings.register_profile(
    LOCAL_PROFILE,
    settings.get_profile("default"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Under CI (the CI variable set) Hypothesis has loaded its `ci` profile itself,
# and it stays; `--hypothesis-profile NAME` wins over both (loaded after this).
if settings.get_current_profile_name() == "default":
    settings.load_profile(LOCAL_PROFILE)

#: Marker of a slow family → the xdist group of the part its tests share.
SHARED_BY_MARKER = {
    "docker": "docker-engine",
    "ray": "ray-cluster",
    "gateway": "litellm-proxy",
    "browser": "chromium",
}
#: Session or module fixture → the xdist group of the server it starts.
SHARED_BY_FIXTURE = {
    "ray_cluster": "ray-cluster",
    "phoenix": "phoenix-server",
}


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    """Run each anyio test on both backends; a missing trio fails loudly."""
    backend: str = request.param
    return backend


def shared_group(item: pytest.Item) -> str | None:
    """The xdist group of ``item``: the daemon or cluster it shares, if any."""
    for marker, group in SHARED_BY_MARKER.items():
        if item.get_closest_marker(marker) is not None:
            return group
    for fixture in getattr(item, "fixturenames", ()):
        if fixture in SHARED_BY_FIXTURE:
            return SHARED_BY_FIXTURE[fixture]
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put each test that shares a daemon or cluster in that part's xdist group.

    Runs before pytest-xdist reads the groups (``--dist loadgroup``).
    """
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        group = shared_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


#: How a suite's own ``suite.json`` begins (a hand-written one may differ).
_WRITTEN_SUITE_JSON = (
    b'{\n  "schema": "artemiskit.suite-record",\n  "schema_version": 2,'
)


def suite_json_round_trips(path: Path) -> None:
    """Assert that a written ``suite.json`` reads and encodes to its own bytes.

    A file some test broke on purpose (an invalid record) is left to that test.
    """
    from artemiskit import WorkflowError
    from artemiskit.records import encode_suite_record
    from artemiskit.suites import read_suite_record

    written = path.read_bytes()
    if not written.startswith(_WRITTEN_SUITE_JSON):
        return
    try:
        record = read_suite_record(path)
    except WorkflowError:
        return
    assert encode_suite_record(record) == written, path


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """After a passing test with a ``tmp_path``, every suite.json in it round-trips."""
    result = yield
    root = getattr(item, "funcargs", {}).get("tmp_path")
    if isinstance(root, Path):
        for path in sorted(root.rglob("suite.json")):
            if path.is_file() and not path.is_symlink():
                suite_json_round_trips(path)
    return result
