#!/usr/bin/env bash
# Install the LiteLLM proxy that the gateway interop test starts, in its own virtualenv.
#
# Idempotent: run it as often as you like. LiteLLM's dependencies never enter the
# project's environment; the test finds the proxy at
#   ${ARTEMISKIT_LITELLM_VENV:-$HOME/.cache/artemiskit/litellm}/bin/litellm
# The version is pinned: 1.108.x runs offline with LITELLM_LOCAL_MODEL_COST_MAP=True,
# 1.108.7 is one whose own pinned extras the registry serves, and 1.107.0 (a
# compromised release) is never installed.
#
# Progress goes to stderr; stdout stays empty. Exit status is non-zero on failure.
set -euo pipefail

VENV="${ARTEMISKIT_LITELLM_VENV:-$HOME/.cache/artemiskit/litellm}"
SPEC='litellm[proxy]==1.108.7'

say() { printf 'litellm-env: %s\n' "$*" >&2; }

installed() {
    "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as metadata
import litellm.proxy.proxy_server  # noqa: F401  (the [proxy] extra is complete)
assert metadata.version("litellm") == "1.108.7"
PY
}

if [ -x "$VENV/bin/litellm" ] && installed; then
    say "LiteLLM proxy present in $VENV"
    exit 0
fi
say "installing $SPEC into $VENV"
mkdir -p "$(dirname "$VENV")"
python3 -m venv "$VENV"
log="$(mktemp)"
if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$SPEC" \
    >"$log" 2>&1; then
    say "pip failed:"
    tail -n 30 "$log" >&2
    rm -f "$log"
    exit 1
fi
rm -f "$log"
installed || { say "the installed proxy does not import"; exit 1; }
say "LiteLLM proxy installed in $VENV"
