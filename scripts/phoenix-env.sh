#!/usr/bin/env bash
# Install the Arize Phoenix server that the tracing interop test starts, in its own
# virtualenv.
#
# Idempotent: run it as often as you like. Phoenix's dependencies never enter the
# project's environment; the test finds the server at
#   ${ARTEMISKIT_PHOENIX_VENV:-$HOME/.cache/artemiskit/phoenix}/bin/phoenix
# The version is pinned so that its REST API (spans by project) stays the one the test
# reads.
#
# Progress goes to stderr; stdout stays empty. Exit status is non-zero on failure.
set -euo pipefail

VENV="${ARTEMISKIT_PHOENIX_VENV:-$HOME/.cache/artemiskit/phoenix}"
VERSION='20.26.1'
SPEC="arize-phoenix==$VERSION"

say() { printf 'phoenix-env: %s\n' "$*" >&2; }

installed() {
    "$VENV/bin/python" - "$VERSION" <<'PY' 2>/dev/null
import importlib.metadata as metadata
import sys
import phoenix.server.main  # noqa: F401  (the server imports)
assert metadata.version("arize-phoenix") == sys.argv[1]
PY
}

if [ -x "$VENV/bin/phoenix" ] && installed; then
    say "Phoenix present in $VENV"
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
installed || { say "the installed server does not import"; exit 1; }
say "Phoenix installed in $VENV"
