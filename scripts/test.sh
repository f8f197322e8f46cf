#!/usr/bin/env bash
# Install everything the test suite needs, then run every check (lint, types, tests,
# examples). Idempotent: safe to run again on the same machine.
#
# With CI=true a missing Docker engine or sandbox image, or a LiteLLM proxy that cannot
# be installed, is an error; elsewhere the sandbox and gateway tests skip with a clear
# reason when their part cannot be set up.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test,ray,mcp]'

# The LiteLLM proxy of the gateway interop test lives in its own virtualenv.
if [ "${CI:-}" = "true" ]; then
    bash scripts/litellm-env.sh
else
    bash scripts/litellm-env.sh || echo "note: the LiteLLM proxy could not be installed; the gateway tests will skip" >&2
fi

# The Arize Phoenix server of the tracing interop test lives in its own virtualenv.
if [ "${CI:-}" = "true" ]; then
    bash scripts/phoenix-env.sh
else
    bash scripts/phoenix-env.sh || echo "note: Phoenix could not be installed; the Phoenix interop test will skip" >&2
fi

if [ "${CI:-}" = "true" ]; then
    bash scripts/ci-docker.sh
elif [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    bash scripts/ci-docker.sh || echo "note: Docker could not be set up; sandbox tests will skip" >&2
else
    echo "note: not root; sandbox tests need a running Docker engine and will skip without one" >&2
fi

# The HTML reports are tested in Debian's Chromium (tests/reports/test_browser.py).
if [ "${CI:-}" = "true" ]; then
    bash scripts/ci-chromium.sh
elif [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    bash scripts/ci-chromium.sh || echo "note: Chromium could not be installed; browser tests will skip" >&2
fi

# Screenshots of every report view (the browser tests) land here in CI, kept as
# artifacts; elsewhere they go to a temporary folder unless this is set.
if [ "${CI:-}" = "true" ]; then
    export ARTEMISKIT_ARTIFACTS="${ARTEMISKIT_ARTIFACTS:-$PWD/artifacts/screenshots}"
fi

python3 -m nox "$@"
