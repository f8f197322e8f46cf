"""How a failed connection is classified, whatever shape anyio gives the failure.

A host name with several addresses (``localhost`` as ``::1`` and ``127.0.0.1`` on
many machines) fails with one `OSError` whose cause is an exception group of every
address's own error. This machine resolves ``localhost`` to one address, so the
chain is built here exactly as anyio builds it, and classified by the function the
client classifies with.
"""

from __future__ import annotations

import ssl

import httpx

from artemiskit.providers._http import _causes


def _multi_address_failure(*errors: OSError) -> httpx.ConnectError:
    group = ExceptionGroup("connect to every address", list(errors))
    failed = OSError("All connection attempts failed")
    failed.__cause__ = group
    outer = httpx.ConnectError("All connection attempts failed")
    outer.__cause__ = failed
    return outer


def test_every_address_of_a_group_is_a_cause() -> None:
    refused = [ConnectionRefusedError(111, "refused"), ConnectionRefusedError(111, "x")]
    causes = _causes(_multi_address_failure(*refused))
    assert sorted(map(id, causes)) == sorted(map(id, refused))


def test_a_group_is_flattened_and_what_follows_it_is_still_read() -> None:
    refused = ConnectionRefusedError(111, "refused")
    tls = ssl.SSLCertVerificationError("certificate verify failed")
    nested = ExceptionGroup("outer", [ExceptionGroup("inner", [refused]), tls])
    assert {id(cause) for cause in _causes(nested)} == {id(refused), id(tls)}
