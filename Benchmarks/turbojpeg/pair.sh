#!/bin/sh
# Alternates ceiling's two whole-thumbnail modes (libvips jpegload, tjDecompress2), each in its own warmed process,
# ROUNDS times, on the JPEGs of FOLDER; prints CPU seconds per run on stderr.
# Usage: Benchmarks/turbojpeg/pair.sh CEILING_BINARY FOLDER ROUNDS
for r in $(seq 1 "$3"); do
  if [ $((r % 2)) = 1 ]; then a=vips; b=tj; else a=tj; b=vips; fi
  VIPS_WARNING=0 "$1" $a 1 "$2"/*.jpg; VIPS_WARNING=0 "$1" $b 1 "$2"/*.jpg
done
