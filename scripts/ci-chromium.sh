#!/usr/bin/env bash
# Make Debian's Chromium available for the browser tests of the HTML reports.
#
# Idempotent: run it as often as you like. When no `chromium` is on PATH, installs
# Debian's `chromium` package with apt (needs root). Nothing else is downloaded: the
# tests drive this system browser through Playwright's driver (a PyPI package) and
# never fetch a browser build of their own.
#
# Progress goes to stderr; stdout stays empty. Exit status is non-zero on failure.
set -euo pipefail

say() { printf 'ci-chromium: %s\n' "$*" >&2; }
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

if command -v chromium >/dev/null 2>&1; then
    say "chromium present: $(command -v chromium)"
    exit 0
fi
say "chromium missing: installing Debian's chromium with apt"
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! { as_root apt-get update -qq && as_root apt-get install -y -qq \
    --no-install-recommends chromium; } >"$log" 2>&1; then
    say "apt-get failed:"
    tail -n 30 "$log" >&2
    exit 1
fi
say "chromium installed: $(command -v chromium)"
