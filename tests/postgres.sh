#!/bin/sh
# Run by `npm test` before the suite: the PostgreSQL tests start a server of their own from
# Debian's postgresql (tests/helpers/postgres.ts), which a fresh machine does not have. It is
# installed with apt-get (through sudo, without a password prompt, when not root), as .ci/run
# does; where that cannot be done the run stops here in one line. The package's own cluster is
# not used: each test run starts a server in a temporary folder on a port of its own.
set -u
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 && exit 0
say() { echo "npm test: $*" >&2; }
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  say "installing Debian's postgresql for the PostgreSQL tests (apt-get install postgresql)"
  if $sudo apt-get update -qq >/dev/null 2>&1 && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    exit 0
  fi
fi
say "the PostgreSQL tests need Debian's postgresql: run 'sudo apt-get install -y postgresql', then npm test again"
exit 1
