#!/usr/bin/env bash
# `make check-install`: `make install` into a temporary prefix, then the installed album must
#   1. answer `--version` with the Swift toolchain out of PATH and LD_LIBRARY_PATH (env -i PATH=/usr/bin:/bin);
#   2. link no Swift runtime, Foundation, Dispatch or BlocksRuntime library (ldd), and no library ldd cannot find;
#   3. have its bash, zsh and fish completions and its man page installed, the page free of groff warnings;
#   4. leave no file behind after `make uninstall`.
# Usage: scripts/check-install.sh [MAKE]. Exits 0 when every check passes. Takes a release build (minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
make=${1:-make}
tmp=$(mktemp -d /tmp/album-check-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }

"$make" --no-print-directory install PREFIX="$tmp" DESTDIR=
album=$tmp/bin/album

echo "--- env -i PATH=/usr/bin:/bin $album --version"
env -i PATH=/usr/bin:/bin "$album" --version || fail "the installed album does not run without the toolchain"

echo "--- ldd $album"
ldd "$album"
if ldd "$album" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|not found'; then
    fail "the installed album needs the libraries above"
fi
echo "--- size: $(du -h "$album" | cut -f1) ($(stat -c %s "$album") bytes)"

for file in bin/album share/bash-completion/completions/album share/zsh/site-functions/_album \
            share/fish/vendor_completions.d/album.fish share/man/man1/album.1; do
    [ -s "$tmp/$file" ] || fail "$file is not installed"
    echo "installed $file"
done
warnings=$(groff -man -Tutf8 -ww -z "$tmp/share/man/man1/album.1" 2>&1)
[ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
env -i PATH=/usr/bin:/bin MANWIDTH=80 man -l "$tmp/share/man/man1/album.1" 2>&1 | head -4

"$make" --no-print-directory uninstall PREFIX="$tmp" DESTDIR=
left=$(find "$tmp" -type f)
[ -z "$left" ] || fail "uninstall left: $left"
echo "check-install: ok (uninstall removed every installed file)"
