#!/usr/bin/env bash
# `make install-check`: `make install` into a scratch prefix, then checks that
# the installed clientgen reports the generator's version and that the bash,
# zsh and fish completion scripts are in place. CI installs the debug build
# (a release build would add minutes; the install steps are the same).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
# The debug build with the flags of every other debug build here: the clientgen `make test` built.
make --no-print-directory install PREFIX="$prefix" INSTALL_CONFIGURATION="${INSTALL_CONFIGURATION:-debug}" INSTALL_BUILD_FLAGS="${DEBUG_BUILD_FLAGS-$(cat scripts/debug_build_flags)}"
expected=$(sed -n 's/.*current = "\(.*\)"/\1/p' Generator/Sources/Codegen/GeneratorVersion.swift)
installed=$("$prefix/bin/clientgen" --version)
if [ "$installed" != "$expected" ]; then
    echo "install: clientgen reports $installed, the generator is $expected" >&2
    exit 1
fi
for f in share/bash-completion/completions/clientgen share/zsh/site-functions/_clientgen share/fish/vendor_completions.d/clientgen.fish; do
    grep -q generate "$prefix/$f" || { echo "install: $f has no 'generate' completion" >&2; exit 1; }
done
echo "install: clientgen $installed and 3 completion scripts in a scratch prefix"
