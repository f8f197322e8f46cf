"""Where a run came from: git state, the CI job, the machine."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from typing import TYPE_CHECKING

from artemiskit.prompt_response._manifest import CIInfo, EnvironmentInfo, GitInfo

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ci_info", "environment_info", "git_info"]

_GIT_TIMEOUT_S = 5.0
_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args],
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def git_info() -> GitInfo:
    """The commit, branch, dirtiness and origin of the working directory's repository.

    ``unknown``/``unknown``/``false`` when it is not a git repository.
    """
    commit = _git("rev-parse", "HEAD")
    branch = _git("rev-parse", "--abbrev-ref", "HEAD")
    status = _git("status", "--porcelain")
    if commit is None or branch is None or status is None:
        return GitInfo(commit="unknown", branch="unknown", dirty=False)
    return GitInfo(
        commit=commit,
        branch=branch,
        dirty=bool(status),
        remote=_git("remote", "get-url", "origin") or None,
    )


def ci_info(environ: Mapping[str, str] | None = None) -> CIInfo | None:
    """The CI job running this process, if any (GitHub, GitLab, CircleCI, Jenkins)."""
    env = os.environ if environ is None else environ

    def get(name: str) -> str:
        return env.get(name, "undefined")

    if env.get("GITHUB_ACTIONS"):
        url = (
            f"{get('GITHUB_SERVER_URL')}/{get('GITHUB_REPOSITORY')}/actions/runs/"
            f"{get('GITHUB_RUN_ID')}"
        )
        return CIInfo(
            provider="github-actions", build_id=get("GITHUB_RUN_ID"), build_url=url
        )
    if env.get("GITLAB_CI"):
        return CIInfo(
            provider="gitlab-ci",
            build_id=get("CI_JOB_ID"),
            build_url=env.get("CI_JOB_URL"),
        )
    if env.get("CIRCLECI"):
        return CIInfo(
            provider="circleci",
            build_id=get("CIRCLE_BUILD_NUM"),
            build_url=env.get("CIRCLE_BUILD_URL"),
        )
    if env.get("JENKINS_URL"):
        return CIInfo(
            provider="jenkins", build_id=get("BUILD_ID"), build_url=env.get("BUILD_URL")
        )
    return None


def environment_info() -> EnvironmentInfo:
    """The interpreter, platform and architecture."""
    machine = platform.machine().lower()
    return EnvironmentInfo(
        python_version=platform.python_version(),
        platform=sys.platform,
        arch=_ARCH.get(machine, machine),
    )
