#!/usr/bin/env bash
# The report's browser check (issue 9): a run over the 12 real sample photos plus one broken file, with sepia,
# rendered by headless Chromium from a folder that holds only the HTML file, on a desktop and a phone width.
# Usage: scripts/check-report.sh [OUTDIR]   (installs chromium and mate-backgrounds when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
scripts/ensure-packages.sh chromium mate-backgrounds
swift build -c release >/dev/null
work=$(mktemp -d)
mkdir -p "$work/photos"
cp /usr/share/backgrounds/mate/nature/*.jpg "$work/photos/"
printf '<!doctype html><html><body>Not Found</body></html>\n' > "$work/photos/broken.jpg"
cat > "$work/job.yml" <<'JOB'
version: 1
name: report-check
report: report.html
stages:
  - import: {from: photos}
  - filter: {preset: sepia}
  - thumbnail: {}
JOB
status=0
.build/release/album run "$work/job.yml" || status=$?
echo "album run exited $status (1 expected: the broken file)"
mkdir -p "$out/alone"
cp "$work/report.html" "$out/alone/report.html"
rm -rf "$work"                                          # the catalogue and photos are gone: only the page is left
for size in 1280,2400 390,2400; do
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$size" \
        --screenshot="$out/report-${size%%,*}.png" "file://$out/alone/report.html" 2>/dev/null
done
echo "screenshots: $out/report-1280.png (desktop), $out/report-390.png (phone)"
