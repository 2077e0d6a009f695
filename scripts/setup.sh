#!/usr/bin/env bash
# Installs what todofmt builds and tests with, when it is missing: the C libraries it links
# (libyaml, SQLite, found through pkg-config) and, unless --build is given, the tools its
# tests compare against (cmark-gfm, jq, the sqlite3 shell, plistutil, PyYAML).
# Debian and Ubuntu use apt; elsewhere it says what to install. Safe to run again.
set -euo pipefail

build_only=false
[ "${1:-}" = "--build" ] && build_only=true

missing=()
need() { dpkg -s "$1" >/dev/null 2>&1 || missing+=("$1"); }
need pkg-config
need libyaml-dev
need libsqlite3-dev
if ! $build_only; then
  need cmark-gfm
  need jq
  need sqlite3
  need libplist-utils
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The YAML tests read todofmt's output with PyYAML, in whichever python3 is first on PATH.
if ! $build_only && ! python3 -c 'import yaml' 2>/dev/null; then
  echo "setup: installing PyYAML" >&2
  python3 -m pip install --quiet pyyaml
fi
