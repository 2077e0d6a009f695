#!/usr/bin/env bash
# Installs todofmt under a prefix: a release build of the binary, the man page todofmt(1) and
# completions for bash, zsh and fish, each where its reader looks, and a manifest of what it put
# there, by which --uninstall removes exactly that and nothing else.
#
# Usage: scripts/install.sh [PREFIX]                  PREFIX defaults to /usr/local
#        scripts/install.sh --uninstall [PREFIX]
#        scripts/install.sh --binary FILE [PREFIX]    install FILE, a todofmt already built, instead
#                                                     of building one (the tests use their debug build)
#
# It puts under PREFIX:
#   bin/todofmt
#   share/man/man1/todofmt.1                         made by 'todofmt help --man'
#   share/bash-completion/completions/todofmt        made by 'todofmt completions bash'
#   share/zsh/site-functions/_todofmt                made by 'todofmt completions zsh'
#   share/fish/vendor_completions.d/todofmt.fish     made by 'todofmt completions fish'
#   share/todofmt/install-manifest                   each file with its SHA-256, each folder it made
#
# Installing again replaces what the last install put there. A file in the way that no install
# put there stops it before anything changes; uninstalling keeps a file changed since, and the
# folders that are not empty. It asks for sudo only when PREFIX is not writable.
set -euo pipefail

# usage STATUS: the Usage lines above, on standard error when STATUS is not 0.
usage() {
  local text
  text=$(sed -n '/^# Usage:/,/^#$/s/^# //p' "$0")
  if [ "$1" -eq 0 ]; then echo "$text"; else echo "$text" >&2; fi
  exit "$1"
}
fail() { echo "install.sh: $*" >&2; exit 1; }

uninstall=false
binary=
prefix=
while [ $# -gt 0 ]; do
  case $1 in
    --uninstall) uninstall=true ;;
    --binary) [ $# -ge 2 ] || usage 64; binary=$2; shift ;;
    -h|--help) usage 0 ;;
    -*) echo "install.sh: unknown option '$1'" >&2; usage 64 ;;
    *) [ -z "$prefix" ] || usage 64; prefix=$1 ;;
  esac
  shift
done
prefix=${prefix:-/usr/local}
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
prefix=${prefix%/}
case $binary in ''|/*) ;; *) binary=$PWD/$binary ;; esac
cd "$(dirname "$0")/.."

manifest_path=share/todofmt/install-manifest
manifest=$prefix/$manifest_path

# sudo only where the prefix (or the folder it will be made in) is not writable.
sudo=
existing=$prefix
while [ ! -e "$existing" ]; do existing=$(dirname "$existing"); done
if [ ! -w "$existing" ] && [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi

checksum() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d ' ' -f 1
}

# A folder of the manifest as a path: "." is the prefix itself.
folder() { if [ "$1" = . ]; then echo "$prefix"; else echo "$prefix/$1"; fi; }

# The files and folders the last install recorded: "file SUM PATH" and "dir PATH" lines.
old_files=()
old_sums=()
old_folders=()
if [ -f "$manifest" ]; then
  while read -r kind first second; do
    case $kind in
      file) old_sums+=("$first"); old_files+=("$second") ;;
      dir) old_folders+=("$first") ;;
    esac
  done < "$manifest"
fi

# Removes what the last install recorded: each file unchanged since (but those about to be
# replaced), then the folders it made, if empty.
remove_old() {
  local index path
  for index in ${old_files[@]+"${!old_files[@]}"}; do
    path=$prefix/${old_files[index]}
    if [ ! -e "$path" ] || replaced "${old_files[index]}"; then
      continue
    elif [ -f "$path" ] && [ "$(checksum "$path")" = "${old_sums[index]}" ]; then
      $sudo rm -f "$path"
      $quiet || echo "removed $path"
    else
      echo "install.sh: kept $path: it changed since it was installed" >&2
    fi
  done
  $sudo rm -f "$manifest"
  # Deepest first: the manifest lists each folder after the one it is in.
  for ((index = ${#old_folders[@]} - 1; index >= 0; index--)); do
    $sudo rmdir "$(folder "${old_folders[index]}")" 2>/dev/null || true
  done
}

if $uninstall; then
  [ -f "$manifest" ] || fail "nothing to uninstall: there is no $manifest"
  quiet=false
  replaced() { false; }
  remove_old
  exit 0
fi

# Build (unless given a binary), then make every file to install in a staging folder.
if [ -z "$binary" ]; then
  scripts/setup.sh --build
  # On Linux the Swift runtime and Foundation go into the binary, so it runs after the
  # toolchain it was built with moves or goes; Apple systems have them already.
  static=()
  [ "$(uname -s)" = Linux ] && static=(--static-swift-stdlib)
  swift build -c release --product todofmt ${static[@]+"${static[@]}"} >&2
  binary=$(swift build -c release --show-bin-path)/todofmt
fi
[ -x "$binary" ] || fail "$binary is not an executable"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
version=$("$binary" --version)
"$binary" help --man > "$stage/todofmt.1"
for shell in bash zsh fish; do "$binary" completions "$shell" > "$stage/$shell"; done

# What goes where: source, path under the prefix, mode.
files=(
  "$binary" bin/todofmt 755
  "$stage/todofmt.1" share/man/man1/todofmt.1 644
  "$stage/bash" share/bash-completion/completions/todofmt 644
  "$stage/zsh" share/zsh/site-functions/_todofmt 644
  "$stage/fish" share/fish/vendor_completions.d/todofmt.fish 644
)

# replaced PATH: whether this install writes PATH (under the prefix).
replaced() {
  local i
  for ((i = 1; i < ${#files[@]}; i += 3)); do [ "${files[i]}" = "$1" ] && return 0; done
  return 1
}

# Refuse, before changing anything, to replace a file the last install did not put there.
for ((i = 1; i < ${#files[@]}; i += 3)); do
  [ -e "$prefix/${files[i]}" ] || continue
  ours=false
  for old in ${old_files[@]+"${old_files[@]}"}; do [ "$old" = "${files[i]}" ] && ours=true; done
  $ours || fail "$prefix/${files[i]} is in the way: this script did not install it (remove it, or choose another prefix)"
done

quiet=true
remove_old

# The folders this install makes, parents first; those the last one made and still stand count too.
made=()
for old in ${old_folders[@]+"${old_folders[@]}"}; do [ -d "$(folder "$old")" ] && made+=("$old"); done
make_folder() {
  local sub= part
  if [ ! -d "$prefix" ]; then $sudo mkdir -p "$prefix"; made+=(.); fi
  local IFS=/
  for part in $1; do
    sub=${sub:+$sub/}$part
    if [ ! -d "$prefix/$sub" ]; then $sudo mkdir "$prefix/$sub"; made+=("$sub"); fi
  done
}

record=$stage/manifest
echo "# $version under $prefix, by scripts/install.sh; 'scripts/install.sh --uninstall $prefix' removes it." > "$record"
for ((i = 0; i < ${#files[@]}; i += 3)); do
  source=${files[i]} path=${files[i + 1]} mode=${files[i + 2]}
  make_folder "$(dirname "$path")"
  $sudo install -m "$mode" "$source" "$prefix/$path"
  echo "file $(checksum "$prefix/$path") $path" >> "$record"
  echo "installed $prefix/$path"
done
make_folder "$(dirname "$manifest_path")"
for folder in ${made[@]+"${made[@]}"}; do echo "dir $folder" >> "$record"; done
$sudo install -m 644 "$record" "$manifest"

case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install.sh: $prefix/bin is not on PATH; add it to run todofmt by name" >&2 ;;
esac
