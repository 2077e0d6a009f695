#!/usr/bin/env bash
# Installs what todofmt builds and tests with, when it is missing: the C libraries it links
# (libyaml, and SQLite except on macOS, whose SDK has it; both found through pkg-config)
# and, unless --build is given, the tools its tests compare against or drive (cmark-gfm, jq,
# the sqlite3 shell, plistutil, PyYAML; man and groff for the man page; zsh and fish for
# the completions).
# Debian and Ubuntu use apt, macOS Homebrew; elsewhere it says what to install and goes on.
# Safe to run again: each need is probed first (a command, or a library pkg-config knows).
set -euo pipefail

build_only=false
[ "${1:-}" = "--build" ] && build_only=true

have() { command -v "$1" >/dev/null 2>&1; }
library() { pkg-config --exists "$1" 2>/dev/null; }
# man-db's man, whose -l reads a local file; Homebrew installs it as gman.
man_db() { have gman || man --help 2>&1 | grep -q -- --local-file; }

if have apt-get && have dpkg; then system=apt
elif [ "$(uname -s)" = Darwin ]; then system=brew
else system=other
fi

# need PROBE APT-PACKAGE BREW-FORMULA: one thing todofmt needs, "-" where a system has it.
missing=()
need() {
  local probe=$1 package
  case $system in apt) package=$2 ;; brew) package=$3 ;; *) package=$2 ;; esac
  [ "$package" = - ] && return 0
  $probe || missing+=("$package")
}
need "have pkg-config" pkg-config pkgconf
need "library yaml-0.1" libyaml-dev libyaml
need "library sqlite3" libsqlite3-dev -
if ! $build_only; then
  need "have cmark-gfm" cmark-gfm cmark-gfm
  need "have jq" jq jq
  need "have sqlite3" sqlite3 -
  need "have plistutil" libplist-utils libplist
  need "man_db" man-db man-db
  need "have groff" groff-base groff
  need "have zsh" zsh -
  need "have fish" fish fish
fi

if [ ${#missing[@]} -gt 0 ]; then
  case $system in
    apt)
      echo "setup: installing ${missing[*]}" >&2
      if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
      ;;
    brew)
      if ! have brew; then
        echo "setup: install Homebrew, then run this again; todofmt needs ${missing[*]}" >&2
        exit 1
      fi
      echo "setup: installing ${missing[*]}" >&2
      brew install --quiet "${missing[@]}" >/dev/null
      ;;
    *)
      # The Debian names say what each is; the build or the tests fail on what is really missing.
      echo "setup: no apt or Homebrew here; install these (Debian's names) by hand if the build or the tests miss them:" >&2
      echo "  ${missing[*]}" >&2
      ;;
  esac
fi

# The YAML tests read todofmt's output with PyYAML, in whichever python3 is first on PATH.
if ! $build_only && ! python3 -c 'import yaml' 2>/dev/null; then
  echo "setup: installing PyYAML" >&2
  python3 -m pip install --quiet pyyaml
fi
