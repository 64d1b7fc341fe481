# album's two commands: `make demo` and `make test`. Both install what is missing first.
# `make bench` (QUICK=1 for a small subset) runs the benchmarks of issue 7 and writes Benchmarks/RESULTS.md.
# `make mutate` checks that the tests catch the regressions listed in tools/mutate/mutations/ (docs/testing.md).
# `make lint` fails when an AlbumKit file imports C or calls libc itself instead of going through System.
SWIFT ?= swift
# Build and link: libvips, SQLite and libcrypto headers, and pkg-config to find them.
PACKAGES := pkg-config libvips-dev libsqlite3-dev libssl-dev
# The demo's sample album: real camera photos with EXIF capture dates (2007-2008).
DEMO_PACKAGES := mate-backgrounds
DEMO_PHOTOS := /usr/share/backgrounds/mate/nature
ALBUM := .build/release/album

.PHONY: deps demo test test-slurm lint mutate build release bench bench-confirm clean

deps:
	@scripts/ensure-packages.sh $(PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The tests also drive the sqlite3 shell and run album as another user with setpriv (util-linux); they read album's
# output with exiftool, djpeg (libjpeg-turbo-progs) and Debian's Python with Pillow (python3-pil), and make a JPEG XL
# fixture with the vips command (libvips-tools).
TEST_PACKAGES := sqlite3 libimage-exiftool-perl libjpeg-turbo-progs libvips-tools python3-pil

test: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
	$(SWIFT) test --disable-swift-testing

# Distributed runs on a real Slurm started on this machine (scripts/slurm-local.sh: munge, a controller, two nodes):
# a 2-node run equals a one-machine run, a chunk killed with SIGKILL and run again loses nothing, one chunk run twice
# at once is harmless, a missing import root is exit 75 (scripts/test-slurm.sh; docs/distributed.md). Under 5 minutes.
SLURM_PACKAGES := slurm-wlm munge sqlite3 python3-pil

test-slurm: deps
	@scripts/ensure-packages.sh $(SLURM_PACKAGES)
	$(SWIFT) build -c release
	scripts/test-slurm.sh $(ALBUM)

# AlbumKit imports no C module and no Glibc, and calls no libc function: System owns them (tools/lint/lint.py names
# file:line and why; docs/testing.md). Foundation re-exports Glibc, so the compiler alone cannot hold this.
lint:
	@scripts/ensure-packages.sh python3
	/usr/bin/python3 tools/lint/lint.py

# Each mutation applied in a scratch copy, its catching tests run, the file restored; exits 1 when one survives.
# The checkout itself is never edited. Options through ARGS, e.g. ARGS="--only writer-lock-shared --keep".
mutate: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES) python3
	SWIFT=$(SWIFT) /usr/bin/python3 tools/mutate/mutate.py $(ARGS)

demo: deps
	@scripts/ensure-packages.sh $(DEMO_PACKAGES)
	$(SWIFT) build -c release
	$(ALBUM) run jobs/demo.yml
	@echo
	@echo "Photos in the catalogue:"
	@$(ALBUM) ls --catalogue demo/album
	@echo
	@echo "Thumbnails: demo/out/ ($$(ls demo/out | wc -l) files). The two photos taken in April 2008 are sepia."
	@echo "Try: $(ALBUM) ls --catalogue demo/album --json, or run 'make demo' again: everything is up to date."

# The benchmark's peers and tools: vips/vipsthumbnail, ImageMagick, djpeg, Debian's Pillow, GNU time.
BENCH_PACKAGES := libvips-tools imagemagick libjpeg-turbo-progs python3-pil time

bench: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	$(SWIFT) build -c release
	Benchmarks/corpus.sh
	/usr/bin/python3 Benchmarks/run.py $(if $(QUICK),--quick)

# The confirming run: the thumbnail comparison and the memory floor again, on a second corpus built the same way.
bench-confirm: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	$(SWIFT) build -c release
	Benchmarks/corpus.sh b
	/usr/bin/python3 Benchmarks/run.py --corpus Benchmarks/corpus-b/photos --only thumbnails \
		--results Benchmarks/RESULTS-confirm.md $(if $(QUICK),--quick)

clean:
	rm -rf .build demo
