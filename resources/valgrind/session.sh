#!/usr/bin/env bash
# The program itself under valgrind's memcheck, in a short real session on a private Xvfb:
# `make valgrind-session`. A stroke, a tooltip, the text tool, undo and redo, zoom, copy and
# paste, rotations, the scale dialog, the file dialog (thumbnails on their thread), the keys
# panel, Ctrl+S, Ctrl+Q. Exits 1 when valgrind reports an error or the picture was not saved.
# (The copy without debug info: valgrind 3.19 cannot read clang's DWARF 5; see run.sh.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/.build/valgrind/session
rm -rf "$out" && mkdir -p "$out/home"
objcopy --strip-debug "$top/.build/debug/swiftpaint" "$out/swiftpaint" || exit 2
# A display number nobody uses (another one when the server does not come up on it).
server=""
trap '[ -n "$server" ] && kill $server 2>/dev/null' EXIT
for _ in 1 2 3 4 5; do
  n=$((200 + RANDOM % 700))
  [ -e /tmp/.X$n-lock ] || [ -e /tmp/.X11-unix/X$n ] && continue
  Xvfb :$n -screen 0 1024x768x24 -nolisten tcp -r >"$out/xvfb.log" 2>&1 &
  server=$!
  for _ in $(seq 1 300); do
    kill -0 $server 2>/dev/null || break
    DISPLAY=:$n xdpyinfo >/dev/null 2>&1 && break 2
    sleep 0.1
  done
  kill $server 2>/dev/null
  server=""
done
[ -n "$server" ] || { echo "no Xvfb came up"; cat "$out/xvfb.log"; exit 2; }
export DISPLAY=:$n HOME=$out/home XDG_DATA_HOME=$out/home/data XDG_STATE_HOME=$out/home/state XDG_CONFIG_HOME=$out/home/config
picture=$out/picture.png
# Starts swiftpaint under memcheck (log $out/valgrind-$1.log) with the rest of the arguments,
# and finds its window.
launch() {
  local name=$1
  shift
  valgrind --tool=memcheck --leak-check=no --num-callers=40 --log-file="$out/valgrind-$name.log" \
    "$out/swiftpaint" "$@" >"$out/swiftpaint-$name.out" 2>&1 &
  app=$!
  window=""
  for _ in $(seq 1 600); do
    window=$(xdotool search --onlyvisible --name "SwiftPaint" 2>/dev/null | head -1)
    [ -n "$window" ] && break
    sleep 0.2
  done
  [ -n "$window" ] || { echo "no window"; cat "$out/swiftpaint-$name.out"; kill $app; exit 2; }
}
# Ctrl+Q, and waits for the program to exit.
quit() {
  xdotool mousemove --window "$window" 20 200 key ctrl+q
  for _ in $(seq 1 300); do kill -0 $app 2>/dev/null || break; sleep 0.2; done
  kill -0 $app 2>/dev/null && { echo "swiftpaint did not quit"; kill $app; }
  wait $app
}
launch new --size 400x300 "$picture"
# Each step waits a little (valgrind makes the program some 30 times slower); this is a
# session to look at, not a test.
step() { sleep "${1:-2}"; }
step 3
xdotool mousemove --window "$window" 100 300 mousedown 1
for x in $(seq 100 10 600); do xdotool mousemove --window "$window" "$x" $((300 + x % 50)); done
xdotool mouseup 1; step
xdotool mousemove --window "$window" 300 40; step 3
xdotool mousemove --window "$window" 20 200 key t; step 1
xdotool mousemove --window "$window" 400 220 click 1; step
xdotool type --delay 150 "Hello שלום"; step
xdotool mousemove --window "$window" 900 400 click 1; step
xdotool mousemove --window "$window" 20 200 key ctrl+z; step 1; xdotool key ctrl+y; step 1
xdotool key ctrl+equal; step; xdotool key ctrl+minus; step; xdotool key ctrl+minus; step; xdotool key ctrl+0; step
xdotool key ctrl+c; step; xdotool key ctrl+v; step 3; xdotool key Return; step
xdotool key ctrl+h; step; xdotool key ctrl+g; step
xdotool key ctrl+r; step 3; xdotool key Escape; step 1
xdotool key ctrl+o; step 6; xdotool key Escape; step
xdotool key F1; step; xdotool key Escape; step 1
xdotool key ctrl+s
for _ in $(seq 1 300); do [ -s "$picture" ] && break; sleep 0.2; done
step
quit
[ -s "$picture" ] || { echo "the picture was not saved"; exit 1; }
# The saved picture opened again: read on the opening thread, its history replayed on the
# rebuild thread (from the history store) while a stroke is drawn; undo reaches into it.
saved=$(stat -c %Y "$picture")
launch reopened "$picture"
step 5
xdotool mousemove --window "$window" 400 150 mousedown 1
for x in $(seq 400 10 600); do xdotool mousemove --window "$window" "$x" 150; done
xdotool mouseup 1; step 3
xdotool key ctrl+z; step; xdotool key ctrl+z; step; xdotool key ctrl+y; step
xdotool key ctrl+s; step 5
quit
grep "ERROR SUMMARY" "$out"/valgrind-*.log
failed=0
for log in "$out"/valgrind-*.log; do
  grep -q "ERROR SUMMARY: 0 errors" "$log" || { echo "valgrind: errors, see $log"; failed=1; }
done
exit $failed
