# album's two commands: `make demo` and `make test`. Both install what is missing first.
# `make bench` (QUICK=1 for a small subset) runs the benchmarks of issue 7 and writes Benchmarks/RESULTS.md.
# `make mutate` checks that the tests catch the regressions listed in tools/mutate/mutations/ (docs/testing.md).
# `make lint` fails when a file of album's layers imports C or calls libc itself instead of going through System.
# `make install PREFIX=…` (default /usr/local; DESTDIR too) installs album, its completions and man page; `make
# uninstall` removes them; `make check-install` proves the installed binary runs without the Swift toolchain.
SWIFT ?= swift
# Build and link: libvips, libjpeg, SQLite, libcrypto, libexif, libraw and libxml2 headers, and pkg-config to find them.
PACKAGES := pkg-config libvips-dev libjpeg62-turbo-dev libsqlite3-dev libssl-dev libexif-dev libraw-dev libxml2-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
# The demo's sample album: real camera photos with EXIF capture dates (2007-2008).
DEMO_PACKAGES := mate-backgrounds
DEMO_PHOTOS := /usr/share/backgrounds/mate/nature
ALBUM := .build/release/album
# An import of a target that is not a declared dependency fails the build, even when that target is built already:
# the layers of ARCHITECTURE.md are held by the compiler (`make layers` proves it for each adjacent pair).
BUILD_FLAGS := --explicit-target-dependency-import-check error

.PHONY: deps demo test test-slurm test-power lint layers mutate build release bench bench-confirm clean install uninstall check-install

deps:
	@scripts/ensure-packages.sh $(PACKAGES)

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

# The tests also drive the sqlite3 shell and run album as another user with setpriv (util-linux); they read album's
# output with exiftool, djpeg (libjpeg-turbo-progs) and Debian's Python with Pillow (python3-pil), and make a JPEG XL
# fixture with the vips command (libvips-tools).
# InstallTests check the completion scripts with bash, zsh and fish, and the man page with groff. HEIFThumbnailTests make
# HEICs with and without a thumbnail item with libheif's heif-enc (libheif-examples); RawPhotoTests write DNGs with
# Tests/AlbumTests/Support/make_dng.py (Python's struct and Pillow). Motion and Live Photo tests make short movies with
# the ffmpeg command (ffmpeg) and read the exported ones with ffprobe (the same package).
TEST_PACKAGES := sqlite3 libimage-exiftool-perl libjpeg-turbo-progs libvips-tools python3-pil zsh fish groff-base libheif-examples ffmpeg

test: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
	SWIFT=$(SWIFT) /usr/bin/python3 tools/layers/layers.py
	$(SWIFT) test --disable-swift-testing $(BUILD_FLAGS)

# For each pair of adjacent layers, an `import` of the higher one inserted into the lower one's first file must fail
# `swift build --target LOWER $(BUILD_FLAGS)`; the file's bytes are restored, with a new time (tools/layers/layers.py).
layers: deps
	SWIFT=$(SWIFT) /usr/bin/python3 tools/layers/layers.py

# Distributed runs on a real Slurm started on this machine (scripts/slurm-local.sh: munge, a controller, two nodes):
# a 2-node run equals a one-machine run, a chunk killed with SIGKILL and run again loses nothing, one chunk run twice
# at once is harmless, a missing import root is exit 75 (scripts/test-slurm.sh; docs/distributed.md). Under 5 minutes.
SLURM_PACKAGES := slurm-wlm munge sqlite3 python3-pil

test-slurm: deps
	@scripts/ensure-packages.sh $(SLURM_PACKAGES)
	$(SWIFT) build -c release $(BUILD_FLAGS)
	scripts/test-slurm.sh $(ALBUM)

# Power cuts (issue 30; tools/powercut, docs/catalogue.md "Durability"): the catalogue and exports on powerfs, a FUSE
# file system of the project's own that keeps only what was fsynced; 20 runs cut at random moments (first runs, and
# reruns replacing every export), then 4 more without extended attributes. Each cut is checked, then repaired by a
# rerun. About 80 s after the build (measured on a loaded 2-core machine). Without /dev/fuse it prints "SKIPPED: ..." with the reason.
POWER_PACKAGES := fuse3 python3-pyfuse3 python3-pil

test-power: deps
	@scripts/ensure-packages.sh $(POWER_PACKAGES)
	$(SWIFT) build -c release $(BUILD_FLAGS)
	/usr/bin/python3 tools/powercut/powercut.py $(ALBUM) --cuts 20
	/usr/bin/python3 tools/powercut/powercut.py $(ALBUM) --cuts 4 --no-xattr

# album's layers import no C module and no Glibc, and call no libc function: System owns them (tools/lint/lint.py names
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
	$(SWIFT) build -c release $(BUILD_FLAGS)
	$(ALBUM) run jobs/demo.yml
	@echo
	@echo "Photos in the catalogue:"
	@$(ALBUM) ls --catalogue demo/album
	@echo
	@echo "Thumbnails: demo/out/ ($$(ls demo/out | wc -l) files). The two photos taken in April 2008 are sepia."
	@echo "Try: $(ALBUM) ls --catalogue demo/album --json, or run 'make demo' again: everything is up to date."

# The benchmark's peers and tools: vips/vipsthumbnail, ImageMagick, djpeg, Debian's Pillow, GNU time; ffmpeg and heif-enc make
# the video and HEIC rows' fixtures; gcc builds Benchmarks/turbojpeg/ceiling.c (libvips' own pipeline, issue 35's row)
# and Benchmarks/quality/ssim.c against libvips-dev (PACKAGES, with pkg-config).
BENCH_PACKAGES := libvips-tools imagemagick libjpeg-turbo-progs python3-pil time ffmpeg libheif-examples gcc

bench: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	$(SWIFT) build -c release $(BUILD_FLAGS)
	Benchmarks/corpus.sh
	/usr/bin/python3 Benchmarks/run.py $(if $(QUICK),--quick)

# The confirming run: the thumbnail comparison (with issue 35's libvips pipeline row and quality check) and the memory
# floor again, on a second corpus built the same way.
bench-confirm: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	$(SWIFT) build -c release $(BUILD_FLAGS)
	Benchmarks/corpus.sh b
	/usr/bin/python3 Benchmarks/run.py --corpus Benchmarks/corpus-b/photos --only thumbnails \
		--results Benchmarks/RESULTS-confirm.md $(if $(QUICK),--quick)

# The installed album: a release build with the Swift runtime and Foundation linked in (--static-swift-stdlib), so
# it needs only the Debian libraries it names (libvips, SQLite, libcrypto, glibc). Its own build folder, so that
# .build/release (make demo, the benchmarks) and .build/debug (the tests) are left as they are.
PREFIX ?= /usr/local
INSTALL_BUILD := .build/install
INSTALL_ALBUM := $(INSTALL_BUILD)/release/album
INSTALL_SHARE := $(INSTALL_BUILD)/share
INSTALLED := $(DESTDIR)$(PREFIX)/bin/album \
	$(DESTDIR)$(PREFIX)/share/bash-completion/completions/album \
	$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_album \
	$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/album.fish \
	$(DESTDIR)$(PREFIX)/share/man/man1/album.1

# A file target: `sudo make install` after a build as yourself does not build again (nor needs swift on root's PATH).
$(INSTALL_ALBUM): Package.swift $(shell find Sources -type f)
	@scripts/ensure-packages.sh $(PACKAGES)
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(INSTALL_BUILD)
	@mkdir -p $(INSTALL_SHARE)
	$(INSTALL_ALBUM) completion bash > $(INSTALL_SHARE)/album.bash
	$(INSTALL_ALBUM) completion zsh > $(INSTALL_SHARE)/_album
	$(INSTALL_ALBUM) completion fish > $(INSTALL_SHARE)/album.fish
	$(INSTALL_ALBUM) help --man > $(INSTALL_SHARE)/album.1
	@touch $(INSTALL_ALBUM)

install: $(INSTALL_ALBUM)
	install -D -m 755 $(INSTALL_ALBUM) $(DESTDIR)$(PREFIX)/bin/album
	install -D -m 644 $(INSTALL_SHARE)/album.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/album
	install -D -m 644 $(INSTALL_SHARE)/_album $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_album
	install -D -m 644 $(INSTALL_SHARE)/album.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/album.fish
	install -D -m 644 $(INSTALL_SHARE)/album.1 $(DESTDIR)$(PREFIX)/share/man/man1/album.1

uninstall:
	rm -f $(INSTALLED)

# make install into a temporary prefix, then album --version without the toolchain, ldd, the completions and the
# man page (groff's warnings), and make uninstall (scripts/check-install.sh says what it checks).
check-install:
	@scripts/ensure-packages.sh man-db groff-base
	scripts/check-install.sh $(MAKE)

clean:
	rm -rf .build demo
