#!/usr/bin/env bash
# Install the LiteLLM proxy that the gateway interop test starts, in its own virtualenv
# (scripts/server-venv.sh does the work). The test finds the proxy at
#   ${ARTEMISKIT_LITELLM_VENV:-$HOME/.cache/artemiskit/litellm}/bin/litellm
# The version is pinned: 1.108.x runs offline with LITELLM_LOCAL_MODEL_COST_MAP=True,
# 1.108.7 is one whose own pinned extras the registry serves, and 1.107.0 (a
# compromised release) is never installed. Importing litellm.proxy.proxy_server
# proves the [proxy] extra complete.
set -euo pipefail
VERSION='1.108.7'
exec bash "$(dirname "$0")/server-venv.sh" litellm-env \
    "${ARTEMISKIT_LITELLM_VENV:-$HOME/.cache/artemiskit/litellm}" \
    "litellm[proxy]==$VERSION" litellm "$VERSION" litellm.proxy.proxy_server litellm
