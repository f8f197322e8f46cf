"""ArtemisKit for pytest: workflows as test items, a fixture, an assertion helper.

The plugin (`artemiskit_pytest.plugin`, entry point ``pytest11``) loads with
pytest and imports nothing of the engine until a workflow runs. See
``docs/pytest.md``.
"""

from __future__ import annotations

from artemiskit_pytest._verdicts import assert_passed

__all__ = ["assert_passed"]
