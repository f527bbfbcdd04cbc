#!/usr/bin/env bash
# The README's screenshots, taken under Xvfb: resources/screenshot.png (1x, 96 dpi) and
# resources/screenshot-2x.png (2x, the same window on a 192-dpi screen, the picture at 200 %).
# Usage: resources/screenshots/take.sh [BINARY] (default .build/debug/swiftpaint); `make screenshots`.
# Needs Xvfb, xdotool and python3-pil (capture.py). The picture is picture.png here; the program
# runs with a settings file of its own in a scratch home, so nothing of yours is read or changed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "${1:-.build/debug/swiftpaint}")
work=$(mktemp -d)
xvfb=""
app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# One shot: SCALE OUT KEYS... (xdotool key names pressed once the picture is up).
shoot() {
  local scale=$1 out=$2
  shift 2
  local display=$((200 + RANDOM % 700))
  Xvfb ":$display" -screen 0 2400x1600x24 -nolisten tcp -r >"$work/xvfb.log" 2>&1 &
  xvfb=$!
  export DISPLAY=":$display"
  for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
  export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_STATE_HOME="$work/home/state"
  export XDG_DATA_HOME="$work/home/data" SWIFTPAINT_SCALE=$scale
  rm -rf "$HOME"
  mkdir -p "$XDG_CONFIG_HOME/swiftpaint"
  cp "$here/picture.png" "$HOME/landscape.png"
  # A painter at work: the brush in a dark slate, colors used recently, the window the picture's size.
  cat >"$XDG_CONFIG_HOME/swiftpaint/settings.conf" <<'END'
tool = brush
primary = #37474f
secondary = #ffffff
recent = #37474f #ffeb3b #e53935 #1e88e5 #8e24aa
width = 7
window = 1100x738
END
  (cd "$HOME" && exec "$bin" landscape.png >"$work/app.log" 2>&1) &
  app=$!
  local window
  window=$(xdotool search --sync --name 'landscape' | head -1)
  xdotool mousemove --window "$window" 5 5
  local s=$scale
  for key in "$@"; do xdotool key --window "$window" "$key" 2>/dev/null; sleep 0.3; done
  # A third bird, brushed in: x, y in the picture's pixels (at 100 % the window's minus the chrome).
  local top
  top=$(python3 -c "print(round(90 * $s))")
  bird() {
    local points=("$@") first=1
    for p in "${points[@]}"; do
      local px=${p%,*} py=${p#*,}
      local wx wy
      wx=$(python3 -c "print(round($px * $s))")
      wy=$(python3 -c "print(round($top + $py * $s))")
      xdotool mousemove --window "$window" "$wx" "$wy"
      if [ $first = 1 ]; then xdotool mousedown 1; first=0; fi
      sleep 0.05
    done
    xdotool mouseup 1
  }
  bird 470,150 480,142 490,136 500,142 507,150 514,142 524,136 534,142 544,150
  # The pointer resting on the roof: the status bar shows where.
  xdotool mousemove --window "$window" "$(python3 -c "print(round(310 * $s))")" \
    "$(python3 -c "print(round($top + 262 * $s))")"
  sleep 1.5
  /usr/bin/python3 "$here/capture.py" "$window" "$out"
  kill "$app"
  wait "$app" 2>/dev/null || true
  app=""
  kill "$xvfb"
  wait "$xvfb" 2>/dev/null || true
  xvfb=""
}

shoot 1 "$here/../screenshot.png"
shoot 2 "$here/../screenshot-2x.png" ctrl+equal ctrl+equal
echo "take.sh: wrote resources/screenshot.png and resources/screenshot-2x.png"
