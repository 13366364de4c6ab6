#!/bin/sh
# Run by `npm test` before the suite: the browser tests drive Debian's Chromium, which a fresh
# machine does not have. It is installed with apt-get (through sudo, without a password prompt,
# when not root), as .ci/run does; where that cannot be done the run stops here in one line.
set -u
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
say() { echo "npm test: $*" >&2; }
if [ -z "${CHROMIUM_PATH:-}" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  say "installing Debian's chromium for the browser tests (apt-get install chromium)"
  if $sudo apt-get update -qq >/dev/null 2>&1 && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 && [ -x "$chromium" ]; then
    exit 0
  fi
fi
say "the browser tests need Chromium at $chromium: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH), then npm test again"
exit 1
