"""Run the CLI as ``python -m artemiskit_cli``."""

from __future__ import annotations

from artemiskit_cli._main import main

if __name__ == "__main__":
    main()
