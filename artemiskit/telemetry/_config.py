"""The trusted ``telemetry:`` section: where OpenTelemetry spans go (SPEC 25)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

import attrs

__all__ = ["TelemetryConfig", "parse_telemetry_section"]

_KEYS = ("headers_env", "otlp_endpoint", "service_name")
_HEADER = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


@attrs.frozen(kw_only=True, repr=False)
class TelemetryConfig:
    """Where and how runs are exported as OpenTelemetry traces.

    Attributes:
        otlp_endpoint: The collector's OTLP/HTTP base URL; spans go to
            ``<otlp_endpoint>/v1/traces``.
        headers_env: Request headers whose values are read from environment
            variables at export time (``{"authorization": "PHOENIX_API_KEY"}``):
            header values never sit in a file, a record or a log.
        service_name: The ``service.name`` resource attribute.
    """

    otlp_endpoint: str
    headers_env: Mapping[str, str] = attrs.field(factory=dict)
    service_name: str = "artemiskit"

    def __repr__(self) -> str:
        parts = urlsplit(self.otlp_endpoint)
        return (
            f"TelemetryConfig(otlp_endpoint=<{parts.scheme}://{parts.hostname}>, "
            f"headers_env={sorted(self.headers_env)!r}, "
            f"service_name={self.service_name!r})"
        )

    @property
    def traces_url(self) -> str:
        """The URL spans are posted to."""
        return self.otlp_endpoint.rstrip("/") + "/v1/traces"


def parse_telemetry_section(
    raw: Any, report: Callable[[tuple[str | int, ...], str], None]
) -> TelemetryConfig | None:
    """Check the ``telemetry`` mapping of a trusted configuration.

    Args:
        raw: The section's value.
        report: Called with (key path, message) for each problem.

    Returns:
        The section, or ``None`` when it has problems (all of them reported).
    """
    where: tuple[str | int, ...] = ("telemetry",)
    if not isinstance(raw, dict):
        report(where, "must be a mapping")
        return None
    before = _Counter(report)
    for key in raw:
        if key not in _KEYS:
            before.report((*where, key), f"unknown key (known: {', '.join(_KEYS)})")
    endpoint = raw.get("otlp_endpoint")
    if not isinstance(endpoint, str):
        before.report((*where, "otlp_endpoint"), "is required: an http(s) URL")
    else:
        parts = urlsplit(endpoint)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            before.report((*where, "otlp_endpoint"), "must be an http(s) URL")
        elif parts.query or parts.fragment or parts.username or parts.password:
            before.report(
                (*where, "otlp_endpoint"),
                "must be a plain base URL (no query, fragment or credentials)",
            )
    headers = raw.get("headers_env", {})
    if not isinstance(headers, dict):
        before.report((*where, "headers_env"), "must map header names to variables")
        headers = {}
    for header, variable in headers.items():
        if not isinstance(header, str) or not _HEADER.fullmatch(header):
            before.report((*where, "headers_env"), "a header name is not valid")
        if not isinstance(variable, str) or not _VARIABLE.fullmatch(variable):
            before.report(
                (*where, "headers_env", str(header)),
                "must name an environment variable",
            )
    service = raw.get("service_name", "artemiskit")
    if not isinstance(service, str) or not 1 <= len(service) <= 128:
        before.report((*where, "service_name"), "must be a string of 1-128 chars")
    if before.count:
        return None
    assert isinstance(endpoint, str)
    return TelemetryConfig(
        otlp_endpoint=endpoint, headers_env=dict(headers), service_name=service
    )


class _Counter:
    def __init__(self, report: Callable[[tuple[str | int, ...], str], None]) -> None:
        self._report = report
        self.count = 0

    def report(self, path: tuple[str | int, ...], message: str) -> None:
        self.count += 1
        self._report(path, message)
