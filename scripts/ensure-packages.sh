#!/usr/bin/env bash
# Installs the Debian packages album needs, if any are missing.
# Usage: scripts/ensure-packages.sh PACKAGE...
# As root it runs apt-get; otherwise it uses sudo when sudo works without a password; else it prints the exact
# command to run and exits 1. When another apt or dpkg holds its lock (unattended-upgrades, a second make), it
# waits for it up to ALBUM_APT_LOCK_TIMEOUT seconds (default 300), as apt's -o DPkg::Lock::Timeout does, instead of
# failing at once.
set -euo pipefail

missing=()
for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "album: installing missing packages: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo)
else
    echo "album: cannot install packages without root. Run:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
wait_for_lock=(-o "DPkg::Lock::Timeout=${ALBUM_APT_LOCK_TIMEOUT:-300}")
"${as_root[@]}" apt-get "${wait_for_lock[@]}" update -qq
"${as_root[@]}" apt-get "${wait_for_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "album: installed ${missing[*]}" >&2
