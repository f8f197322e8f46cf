"""Running a child process that obeys permission bits, even as root.

Tests run as root in CI, where permission bits stop neither reads nor writes. A child
started with `obey_permission_bits` as its ``preexec_fn`` drops CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH from its bounding set before exec, so a mode-0 file or a read-only
folder refuses it as it would any user.
"""

from __future__ import annotations

import ctypes
import os

__all__ = ["obey_permission_bits"]

_PR_CAPBSET_DROP = 24
_CAP_DAC_OVERRIDE = 1
_CAP_DAC_READ_SEARCH = 2


def obey_permission_bits() -> None:
    """In the child, before exec: root keeps no right past permission bits."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), f"prctl(PR_CAPBSET_DROP, {capability})")
