"""Debian's Chromium driven by Playwright, for the report pages (SPEC 14, 21).

Chromium is the system browser, launched through its executable path (Playwright
downloads no browser); its driver talks over a pipe (no port is opened). Every
request that is not the page's own ``file://`` URL is aborted and recorded, so a
test sees any attempt to reach the network. Without Chromium the tests skip, and
with ``CI=true`` they fail (``bash scripts/ci-chromium.sh`` installs it).
Screenshots go to ``$ARTEMISKIT_ARTIFACTS`` (CI keeps that folder), else to a
temporary folder; they are never written into the checkout by default.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "CHROMIUM_ARGS",
    "Visit",
    "artifacts_folder",
    "chromium_browser",
    "chromium_path",
]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]
#: How long a page may take to become interactive (the 100,000-run page too).
READY_TIMEOUT_MS = 180_000


def chromium_path() -> str:
    """Chromium's executable: skip without it, and fail when ``CI=true``."""
    found = shutil.which("chromium")
    if found is None:
        problem = "Debian's chromium is not installed (bash scripts/ci-chromium.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI: {problem}", pytrace=False)
        pytest.skip(problem)
    return found


def chromium_browser() -> Iterator[Any]:
    """A headless system Chromium (the body of a module-scoped fixture)."""
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


def artifacts_folder(factory: pytest.TempPathFactory) -> Path:
    """``$ARTEMISKIT_ARTIFACTS`` (made if absent), else a temporary folder."""
    given = os.environ.get("ARTEMISKIT_ARTIFACTS")
    if not given:
        return factory.mktemp("artifacts")
    folder = Path(given)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Visit:
    """One page opened from ``file://``, with everything it logged and asked for.

    Args:
        browser: The launched browser.
        path: The page.
        fragment: A URL fragment to open it at (``#runs?verdict=failed``).
        width: The viewport's width.
        script: Whether JavaScript runs.
        ready: Wait until the viewer says it is interactive (report pages).
    """

    def __init__(
        self,
        browser: Any,
        path: Path,
        *,
        fragment: str = "",
        width: int = 1280,
        script: bool = True,
        ready: bool = False,
    ) -> None:
        self.path = path
        self.console: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.context = browser.new_context(
            viewport={"width": width, "height": 900},
            offline=True,
            java_script_enabled=script,
        )
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", self._dialog)
        self.page.route("**/*", self._route)
        self.page.goto(path.as_uri() + fragment, wait_until="load")
        if ready:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Wait for the viewer's ``data-ready`` (and fail on ``failed``)."""
        self.page.wait_for_selector(
            "body[data-ready]", state="attached", timeout=READY_TIMEOUT_MS
        )
        assert self.page.evaluate("document.body.dataset.ready") == "true"

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.console.append(f"{message.type}: {message.text}")

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route: Any) -> None:
        url = route.request.url
        self.requests.append(url)
        if url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    def assert_clean(self) -> None:
        """No console error or warning, no page error, dialog, or other request."""
        assert self.console == []
        assert self.errors == []
        assert self.dialogs == []
        assert {url.partition("#")[0] for url in self.requests} == {self.path.as_uri()}

    def texts(self, selector: str) -> list[str]:
        """The trimmed text of every element ``selector`` matches."""
        found: list[str] = self.page.eval_on_selector_all(
            selector, "nodes => nodes.map(n => n.textContent.trim())"
        )
        return found

    def fragment(self) -> str:
        """The page's current URL fragment (with its ``#``)."""
        found: str = self.page.evaluate("location.hash")
        return found

    def shoot(self, folder: Path, name: str, *, full_page: bool = True) -> Path:
        """A screenshot of the page as ``folder/name.png``."""
        shot = folder / f"{name}.png"
        self.page.screenshot(path=str(shot), full_page=full_page)
        assert shot.stat().st_size > 5_000
        return shot

    def close(self) -> None:
        """Close the page's context."""
        self.context.close()
