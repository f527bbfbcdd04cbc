# SwiftPaint. `make run` builds and starts the program; `make test` builds and runs every test.
# Both install the Debian packages they need first (as root, or through sudo).

SWIFT ?= swift
# Build: Xlib, Xext (MIT-SHM), Xft, Xrender, Xi (XInput 2), Xcursor, libspng, libjpeg-turbo, libwebp, giflib, lcms2, zlib, pixman
# (scaling), the text libraries, libcrypto (libssl-dev: SHA-256 for the history store). Tests: libpng and python3-pil (reference decoders), time (GNU time
# measures a child's peak memory). Tests and benchmarks: XTest, Xvfb, fonts, and
# xclip (the other program in the clipboard tests), x11-apps (xlogo, the harness tests' known-good client),
# x11-utils (xprop reads the window icon), desktop-file-utils (desktop-file-validate), groff-base
# (the man page is checked for warnings) and make itself (a test installs into a DESTDIR);
# x11-xkb-utils and xkb-data (setxkbmap and its layouts: the keyboard tests type on de, ru and fr).
DEPS := pkg-config libx11-dev libxext-dev libxft-dev libxrender-dev libxi-dev libxcursor-dev libx11-xcb-dev libxcb-present-dev libpng-dev zlib1g-dev libpixman-1-dev libxtst-dev \
        libfontconfig-dev libfreetype-dev libharfbuzz-dev libfribidi-dev \
        libspng-dev libjpeg62-turbo-dev libwebp-dev libgif-dev liblcms2-dev libssl-dev python3-minimal python3-pil \
        xvfb xauth fonts-dejavu-core fonts-dejavu-extra xclip x11-apps libharfbuzz-bin \
        x11-utils desktop-file-utils groff-base make x11-xkb-utils xkb-data time
# mount and e2fsprogs: mount, umount and chattr (the full-disk and read-only folder tests). Every program
# a test starts is in Tests/TestSupport/TestPrograms.swift with its package; a test checks it is in DEPS.
DEPS += mount e2fsprogs
# strace: a test holds every fdatasync (the crash journal's syncs) for minutes, as a disk that never finishes.
DEPS += strace
# libjpeg-turbo-progs: cjpeg, the reference a JPEG saved with its file's own color sampling is compared with.
DEPS += libjpeg-turbo-progs
# fonts-dejavu-core has no italic faces: the text tool's Italic (and FontCatalogTests) needs fonts-dejavu-extra.
BENCH_DIR ?= ../shared/bench
ARGS ?=

.PHONY: all deps build run test bench format lint warnings icons screenshots valgrind valgrind-session install uninstall clean

all: build

deps:
	@missing=""; \
	for p in $(DEPS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
	else echo "deps: run as root: apt-get update && apt-get install -y$$missing"; exit 1; fi; \
	$$SUDO apt-get update -q && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends $$missing

build: deps
	$(SWIFT) build -c release

run: build
	.build/release/swiftpaint $(ARGS)

# Unit tests run headless; the end-to-end tests start their own Xvfb servers.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release
	@for f in $(BENCH_DIR)/strokes-1080p.jsonl $(BENCH_DIR)/strokes-4k.jsonl; do \
	  echo "== engine: $$f (and the least of 3 replays per event)"; .build/release/paint-bench $$f --best-of 3 || exit 1; \
	  echo "== engine, curves through the samples (the window's default): $$f"; .build/release/paint-bench $$f --curves --best-of 3 || exit 1; \
	done
	@echo "== window under Xvfb, MIT-SHM"; .build/release/paint-bench x11 --app .build/release/swiftpaint
	@echo "== window under Xvfb, XPutImage"; .build/release/paint-bench x11 --app .build/release/swiftpaint --no-shm
	@echo "== window under Xvfb, MIT-SHM, no journal"; .build/release/paint-bench x11 --app .build/release/swiftpaint --app-args --no-journal
	@echo "== window CPU per motion event, XInput 2 against core events, interleaved"; .build/release/paint-bench x11 --app .build/release/swiftpaint --compare-pointer 5
	@echo "== window CPU per motion event a question makes the canvas ignore, against painting"; .build/release/paint-bench x11 --app .build/release/swiftpaint --question-cpu 3
	@echo "== crash journal on vs off, strokes back to back"; mkdir -p .build/bench-journal && .build/release/paint-bench $(BENCH_DIR)/strokes-1080p.jsonl --compare-journal .build/bench-journal --runs 5
	@echo "== crash journal on vs off, 30 ms between strokes"; .build/release/paint-bench $(BENCH_DIR)/strokes-1080p.jsonl --compare-journal .build/bench-journal --runs 5 --stroke-gap-ms 30
	@echo "== shape previews against brush events of the same area"; .build/release/paint-bench shapes $(BENCH_DIR)/strokes-1080p.jsonl
	@echo "== text tool: a keystroke in a growing text box"; .build/release/paint-bench text --chars 1000
	@echo "== history: 2,000 strokes on 4K (saved as the program saves it, for the memory bench)"; .build/release/paint-bench history $(BENCH_DIR)/strokes-4k.jsonl --samples 2000 --budget-s 240 --save-png .build/bench-history-2000.png
	@echo "== memory with a picture open (1080p, 4K, 4K noise, 8192 x 8192, the 2,000-step one), window 1280 x 800, one stroke"; .build/release/paint-bench memory --app .build/release/swiftpaint --also .build/bench-history-2000.png
	@echo "== history: the same with a 48 MB cap (snapshots deflated, then dropped)"; .build/release/paint-bench history $(BENCH_DIR)/strokes-4k.jsonl --samples 2000 --budget-s 240 --cap-mb 48 --remove-samples 3
	@echo "== opening a 4K photo: PNG, PNG with alpha, JPEG (time and peak memory)"; .build/release/paint-bench open --runs 5
	@echo "== canvas changes of a 4K photo: scale 50 % and 200 %, rotate 90° (time and peak memory)"; .build/release/paint-bench geometry --size 3840x2160 --runs 3
	@echo "== saving a 4K JPEG with its history to PNG: how long the window's thread is held, inline against in the background"; .build/release/paint-bench save --runs 3
	@echo "== writing a 4000 x 3000 photo in each format: encode time, size, decode time, PSNR"; mkdir -p .build/bench-encode && \
	  { [ -f .build/bench-encode/photo.png ] || /usr/bin/python3 resources/bench-photo.py .build/bench-encode/photo.png; } && \
	  .build/release/paint-bench encode --photo .build/bench-encode/photo.png --runs 3
	@echo "== history store: a save plain, with its store entry, with the old chunk, with both"; mkdir -p .build/bench-store && .build/release/paint-bench store $(BENCH_DIR)/strokes-4k.jsonl --runs 5 --folder .build/bench-store
	@echo "== replay budget: removals, fills and recorded strokes against the work estimate"; .build/release/paint-bench replay $(BENCH_DIR)/strokes-1080p.jsonl

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint: warnings
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

# The debug build with its tests has no compiler warning. An incremental build prints a file's
# warnings only when it compiles that file, so each Swift file's own diagnostics file (.dia,
# written again whenever the file is compiled) is read back: one that names its file holds a
# warning still there. Those files are compiled again, so the warnings print with their lines.
warnings: deps
	$(SWIFT) build --build-tests
	@found=""; \
	for src in $$(find Sources Tests -name '*.swift'); do \
	  dia=.build/debug/$$(echo $$src | cut -d/ -f2 | tr - _).build/$$(basename $$src .swift).dia; \
	  if [ -f "$$dia" ] && grep -aqF "$(CURDIR)/$$src" "$$dia"; then found="$$found $$src"; fi; \
	done; \
	if [ -n "$$found" ]; then touch $$found; $(SWIFT) build --build-tests 2>&1 | grep -A3 'warning:'; \
	  echo "warnings in:$$found"; exit 1; fi; \
	echo "warnings: none"

# The application icon: one SVG, rendered to PNGs for the hicolor theme, the small sizes also
# embedded in the program for _NET_WM_ICON (decoded into C: Sources/CWindowIcon). The PNGs and
# the C source are committed; run `make icons` after changing the SVG (it needs rsvg-convert,
# from librsvg2-bin).
ICON_SIZES := 16 22 24 32 48 64 128 256 512
WINDOW_ICON_SIZES := 16 24 32 48 64 128
icons: DEPS += librsvg2-bin
icons: deps
	for s in $(ICON_SIZES); do \
	  rsvg-convert -w $$s -h $$s resources/icons/swiftpaint.svg -o resources/icons/swiftpaint-$$s.png || exit 1; \
	done
	resources/icons/window-icon-source.py Sources/CWindowIcon/window_icon.c resources/icons $(WINDOW_ICON_SIZES)

# The README's screenshots at 1x and 2x, taken under Xvfb from the release build (they need
# xdotool, installed by this target only; Xvfb and python3-pil are in DEPS).
screenshots: DEPS += xdotool
screenshots: build
	resources/screenshots/take.sh .build/release/swiftpaint

# The test process (`valgrind`, suites chosen by FILTER, a swift-testing --filter) and the program
# in a short session on its own Xvfb (`valgrind-session`) under valgrind's memcheck, which sees
# into the C libraries where the sanitizers do not (resources/valgrind/run.sh says how).
FILTER ?= PaintTextTests
valgrind: DEPS += valgrind
valgrind: deps
	$(SWIFT) build --build-tests
	resources/valgrind/run.sh '$(FILTER)'

valgrind-session: DEPS += valgrind xdotool
valgrind-session: deps
	$(SWIFT) build
	resources/valgrind/session.sh

# `make install` puts the program where desktops find it: the binary, the .desktop file, the icon
# in every size of the hicolor theme and the man page. PREFIX and DESTDIR work as usual
# (`make install PREFIX=/usr DESTDIR=/tmp/stage` for a package); BIN picks another build.
PREFIX ?= /usr/local
DESTDIR ?=
BIN ?= .build/release/swiftpaint
SHARE = $(DESTDIR)$(PREFIX)/share
install: build
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/swiftpaint
	install -Dm644 resources/swiftpaint.desktop $(SHARE)/applications/swiftpaint.desktop
	for s in $(ICON_SIZES); do \
	  install -Dm644 resources/icons/swiftpaint-$$s.png $(SHARE)/icons/hicolor/$${s}x$${s}/apps/swiftpaint.png || exit 1; \
	done
	install -Dm644 resources/icons/swiftpaint.svg $(SHARE)/icons/hicolor/scalable/apps/swiftpaint.svg
	install -Dm644 resources/swiftpaint.1 $(SHARE)/man/man1/swiftpaint.1
	@# Caches, only when installing onto this system and only where the tools exist.
	@if [ -z "$(DESTDIR)" ]; then \
	  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t $(SHARE)/icons/hicolor || true; \
	  command -v update-desktop-database >/dev/null && update-desktop-database -q $(SHARE)/applications || true; \
	fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/swiftpaint $(SHARE)/applications/swiftpaint.desktop \
	  $(SHARE)/icons/hicolor/scalable/apps/swiftpaint.svg $(SHARE)/man/man1/swiftpaint.1
	for s in $(ICON_SIZES); do rm -f $(SHARE)/icons/hicolor/$${s}x$${s}/apps/swiftpaint.png; done

clean:
	rm -rf .build
