#!/usr/bin/env bash
# Install a server that an interop test starts, pinned, in a virtualenv of its own.
#
#   bash scripts/server-venv.sh LABEL VENV SPEC DISTRIBUTION VERSION MODULE EXECUTABLE
#
# LABEL prefixes the progress lines; VENV is the virtualenv; SPEC is what pip
# installs; the install counts as present when VENV/bin/EXECUTABLE exists, MODULE
# imports and DISTRIBUTION's installed version is VERSION. Idempotent: run it as
# often as you like; the server's dependencies never enter the project's
# environment. scripts/litellm-env.sh and scripts/phoenix-env.sh call it.
#
# Progress goes to stderr; stdout stays empty. Exit status is non-zero on failure.
set -euo pipefail

if [ "$#" -ne 7 ]; then
    echo "usage: server-venv.sh LABEL VENV SPEC DISTRIBUTION VERSION MODULE EXECUTABLE" >&2
    exit 2
fi
LABEL="$1" VENV="$2" SPEC="$3" DISTRIBUTION="$4" VERSION="$5" MODULE="$6" EXECUTABLE="$7"

say() { printf '%s: %s\n' "$LABEL" "$*" >&2; }

installed() {
    "$VENV/bin/python" - "$DISTRIBUTION" "$VERSION" "$MODULE" <<'PY' 2>/dev/null
import importlib
import importlib.metadata as metadata
import sys

distribution, version, module = sys.argv[1:]
importlib.import_module(module)
assert metadata.version(distribution) == version
PY
}

if [ -x "$VENV/bin/$EXECUTABLE" ] && installed; then
    say "$DISTRIBUTION $VERSION present in $VENV"
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
installed || { say "the installed $MODULE does not import"; exit 1; }
say "$DISTRIBUTION $VERSION installed in $VENV"
