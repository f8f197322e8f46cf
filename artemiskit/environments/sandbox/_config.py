"""`SandboxConfig`: the trusted configuration's ``sandbox`` part (SPEC 5, 11).

Read from ``artemis.config.yaml`` (`artemiskit.providers.parse_trusted_config`);
the Docker sandbox applies it. Importing it loads no Docker client.
"""

from __future__ import annotations

import attrs

from artemiskit.environments.sandbox._engine import DEFAULT_SANDBOX_IMAGE, install_hint

__all__ = ["SandboxConfig"]


@attrs.frozen(kw_only=True)
class SandboxConfig:
    """The trusted sandbox settings: which image, and resource limits.

    ``None`` keeps the sandbox's default (the image: ``artemiskit-sandbox:busybox``).
    """

    image: str | None = None
    memory_bytes: int | None = None
    nano_cpus: int | None = None
    pids_limit: int | None = None
    tmpfs_size_bytes: int | None = None

    def install_hint(self) -> str:
        """Say how to install this configuration's image (it is never pulled).

        Returns:
            Text naming the image, with plain shell commands that build it from
            Debian's ``busybox-static`` and ``docker import`` (nothing from the
            ArtemisKit repository is needed).
        """
        return install_hint(self.image or DEFAULT_SANDBOX_IMAGE)
