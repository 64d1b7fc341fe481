#!/usr/bin/env bash
# Builds the benchmark corpus in Benchmarks/corpus/photos from Debian's wallpaper packages. Nothing is committed.
#
#   1. `apt-get download` the packages (no root needed) and `dpkg -x` them into corpus/extract/;
#   2. keep only JPEG files (by their magic bytes, not their names), one file per distinct SHA-256;
#   3. add crops of each photo re-encoded at quality 90 with `vips crop`: 90 % of each side, at three offsets
#      (top-left, centre, bottom-right), so that the corpus reaches a few hundred distinct photos.
#
# Usage: Benchmarks/corpus.sh            (idempotent: a finished corpus is kept)
#        Benchmarks/corpus.sh b          the second corpus for the confirming run (`make bench-confirm`), built the
#                                        same way in corpus-b/photos: the same originals, but 85 % crops at three
#                                        other offsets (top-right, centre, bottom-left)
set -euo pipefail
export VIPS_WARNING=0  # "unknown EXIF resolution unit" on many of these photos: harmless
cd "$(dirname "$0")"
PACKAGES=(mate-backgrounds plasma-workspace-wallpapers ukui-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04)
VARIANT=${1:-a}
case "$VARIANT" in
    a) CORPUS=corpus; PERCENT=90 ;;
    b) CORPUS=corpus-b; PERCENT=85 ;;
    *) echo "corpus.sh: unknown variant '$VARIANT' (a or b)" >&2; exit 2 ;;
esac
SOURCE=corpus  # both variants share the downloaded packages
STAMP="$CORPUS/photos/.complete"
[ -f "$STAMP" ] && exit 0

mkdir -p "$SOURCE/debs" "$SOURCE/extract"
rm -rf "$CORPUS/photos" && mkdir -p "$CORPUS/photos"
(
    cd "$SOURCE/debs"
    for package in "${PACKAGES[@]}"; do
        ls "${package}"_*.deb >/dev/null 2>&1 || apt-get download -q "$package" >&2
    done
)
for deb in "$SOURCE"/debs/*.deb; do
    name=$(basename "$deb" .deb)
    [ -d "$SOURCE/extract/$name" ] || dpkg -x "$deb" "$SOURCE/extract/$name"
done

# Originals: JPEG by magic bytes (FF D8 FF), one per SHA-256, named after their package and file.
declare -A seen=()
count=0
while IFS= read -r -d '' file; do
    [ "$(head -c 3 "$file" | od -An -tx1 | tr -d ' \n')" = "ffd8ff" ] || continue
    hash=$(sha256sum "$file" | cut -c1-64)
    [ -n "${seen[$hash]:-}" ] && continue
    seen[$hash]=1
    package=$(echo "$file" | cut -d/ -f3 | cut -d_ -f1)
    base=$(basename "$file"); base=${base%.*}; base=$(echo "$base" | tr -c 'A-Za-z0-9._\n-' '_')
    count=$((count + 1))
    cp "$file" "$CORPUS/photos/$(printf '%03d' $count)-$package-$base.jpg"
done < <(find "$SOURCE/extract" -type f -print0 | sort -z)
echo "corpus: $count distinct JPEG originals" >&2

# Crops: PERCENT % of each side at three offsets, re-encoded at Q=90. Each is new content.
for photo in "$CORPUS"/photos/[0-9]*.jpg; do
    read -r width height < <(vipsheader -f width "$photo" | tr '\n' ' '; vipsheader -f height "$photo")
    cw=$((width * PERCENT / 100)); ch=$((height * PERCENT / 100))
    base=${photo%.jpg}
    i=0
    if [ "$VARIANT" = a ]; then  # top-left, centre, bottom-right
        offsets=("0 0" "$(((width - cw) / 2)) $(((height - ch) / 2))" "$((width - cw)) $((height - ch))")
    else                         # top-right, centre, bottom-left
        offsets=("$((width - cw)) 0" "$(((width - cw) / 2)) $(((height - ch) / 2))" "0 $((height - ch))")
    fi
    for offset in "${offsets[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        vips crop "$photo" "${base}-crop$i.jpg[Q=90]" $offset "$cw" "$ch"
    done
done
# A crop could in principle equal another file: keep one file per SHA-256 over the whole corpus.
sha256sum "$CORPUS"/photos/*.jpg | sort | awk 'seen[$1]++ { print $2 }' | xargs -r rm -f
echo "corpus: $(ls "$CORPUS"/photos/*.jpg | wc -l) distinct photos in Benchmarks/$CORPUS/photos" >&2
echo "variant $VARIANT: originals plus $PERCENT % crops at three offsets" > "$CORPUS/photos/.variant"
touch "$STAMP"
