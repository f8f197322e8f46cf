"""The install hint of each optional extra, written once.

A feature whose extra is missing says how to install it with its hint; the
reports (``report``), telemetry (``otel``), the Ray executor (``ray``) and the
LangChain target (``langchain``) all name their extra here.
"""

from __future__ import annotations

__all__ = ["install_hint"]


def install_hint(extra: str) -> str:
    """How to install the optional extra ``extra`` (``pip install 'artemiskit[X]'``).

    Args:
        extra: The extra's name (``report``, ``otel``, ``ray``, ``langchain``).
    """
    return f"pip install 'artemiskit[{extra}]'"
