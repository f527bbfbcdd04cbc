#!/usr/bin/env bash
# The test process under valgrind's memcheck: `make valgrind FILTER='PaintIOTests|PaintTextTests'`.
#
# The sanitizers see only instrumented code; an overflow inside libspng, libjpeg, giflib,
# libwebp, FreeType, HarfBuzz, fontconfig, pixman or libX11 is not. valgrind checks every
# instruction of every library, at 20 to 50 times the time: run a few suites at a time.
# The programs the end-to-end tests start run natively (children are not traced).
#
# valgrind 3.19 (Debian 12) needs three things with this toolchain:
# - a copy of the test binary without its debug info: it cannot read the DWARF 5 that clang
#   writes ("unhandled dwarf2 abbrev form code 0x25") and gives up; the copy keeps symbol names;
# - preload.c, because swift-testing's async main ends the main thread in dispatch_main, after
#   which valgrind crashes creating the next thread, and because Foundation's Process tries to
#   close valgrind's own descriptors in every child it spawns;
# - swift.supp for what it reports in the Swift runtime and Foundation.
#
# Prints each test failure, the test run's last line and valgrind's error summary; exits 1 when
# valgrind found an error (the logs, one per process, are in .build/valgrind/logs). A test that
# fails only for the slowness (a time-out) is not a memory error.
set -uo pipefail
filter=${1:?usage: run.sh FILTER}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/.build/valgrind
mkdir -p "$out"
rm -rf "$out/logs" && mkdir -p "$out/logs"
tests=$top/.build/debug/SwiftPaintPackageTests.xctest
objcopy --strip-debug "$tests" "$out/tests.xctest" || exit 2
clang -shared -fPIC -O1 "$here/preload.c" -o "$out/preload.so" -ldl \
  -L/opt/swift/usr/lib/swift/linux -ldispatch -lswift_Concurrency -Wl,-rpath,/opt/swift/usr/lib/swift/linux || exit 2
export SWIFTPAINT_BIN=${SWIFTPAINT_BIN:-$top/.build/debug/swiftpaint}
cd "$top"
LD_PRELOAD=$out/preload.so valgrind --tool=memcheck --leak-check=no --num-callers=40 \
  --suppressions="$here/swift.supp" --log-file="$out/logs/%p.log" \
  "$out/tests.xctest" --testing-library swift-testing --filter "$filter" >"$out/tests.out" 2>&1
grep -E "✘ Test .* recorded an issue" "$out/tests.out" | head -20
grep -E "Test run with" "$out/tests.out" | tail -1
main=$(grep -l "Command: $out/tests.xctest" "$out"/logs/*.log | head -1)
grep "ERROR SUMMARY" "$main"
errors=$(cat "$out"/logs/*.log | sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' | awk '{n += $1} END {print n + 0}')
[ "$errors" -eq 0 ] || { echo "valgrind: $errors errors, see $out/logs"; exit 1; }
