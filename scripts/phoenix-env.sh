#!/usr/bin/env bash
# Install the Arize Phoenix server that the tracing interop test starts, in its own
# virtualenv (scripts/server-venv.sh does the work). The test finds the server at
#   ${ARTEMISKIT_PHOENIX_VENV:-$HOME/.cache/artemiskit/phoenix}/bin/phoenix
# The version is pinned so that its REST API (spans by project) stays the one the
# test reads.
set -euo pipefail
VERSION='20.26.1'
exec bash "$(dirname "$0")/server-venv.sh" phoenix-env \
    "${ARTEMISKIT_PHOENIX_VENV:-$HOME/.cache/artemiskit/phoenix}" \
    "arize-phoenix==$VERSION" arize-phoenix "$VERSION" phoenix.server.main phoenix
