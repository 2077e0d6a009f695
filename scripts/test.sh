#!/usr/bin/env bash
# The whole test suite: installs what the tests need, then runs them twice: in the default
# build, and in a build without the YAML trait (as an iOS app would build the library),
# where the tests that need YAML are skipped and those of a build without it run.
# TODOFMT_TEST_TRAITS=default runs only the first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The layout .swift-format describes, with the toolchain's swift-format (`swift format -i
# -r Sources Tests Examples Fuzz Package.swift` applies it).
swift format lint --strict -r Sources Tests Examples Fuzz Package.swift
swift build --build-tests
swift test --skip-build "$@"
if [ "${TODOFMT_TEST_TRAITS:-both}" != default ]; then
    echo "== without the YAML trait (swift build --disable-default-traits)"
    swift build --disable-default-traits --scratch-path .build/no-yaml --build-tests
    swift test --disable-default-traits --scratch-path .build/no-yaml --skip-build "$@"
fi
