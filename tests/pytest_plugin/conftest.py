"""Fixtures of the pytest plugin's tests."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import artemiskit
import artemiskit_pytest


@pytest.fixture(autouse=True, scope="session")
def _every_artemiskit_module_imported() -> None:
    """Import every module of ``artemiskit`` and the plugin before any test.

    ``pytester.runpytest_inprocess`` removes, when its run ends, every module the
    run imported; a later test importing one again gets new class objects, and
    the results of a run no longer pass ``isinstance`` against names imported
    earlier. Imported up front, nothing is new to the inner runs.
    """
    for package in (artemiskit, artemiskit_pytest):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
