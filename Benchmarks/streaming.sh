#!/usr/bin/env bash
# Streaming into a page on each browser, side by side in one run: SchemeKit's loopback origin
# (headless-render, release build) against nginx on loopback and, on Chromium, Playwright's
# route.fulfill — the first of three server-sent events, 96 MiB read as it comes, a 1 KiB fetch,
# and headless-render's peak RSS. See Benchmarks/streaming.py for what is measured and how.
#
# usage: Benchmarks/streaming.sh [rounds] [engine…]   (default: 5 rounds, chromium, firefox and
#        webkit; needs nginx, chromium, firefox-esr, xvfb for WebKitGTK when there is no display,
#        and Playwright for Python for its column)
set -euo pipefail
ROUNDS="${1:-5}"
shift || true
ENGINES=("$@")
((${#ENGINES[@]})) || ENGINES=(chromium firefox webkit)
HERE="$(cd "$(dirname "$0")/.." && pwd)"
TRAITS=Chromium,Firefox,WebKitGTK
echo "building headless-render (release, traits $TRAITS)…" >&2
(cd "$HERE" && swift build -c release --traits "$TRAITS" --product headless-render >&2)
BIN="$(cd "$HERE" && swift build -c release --traits "$TRAITS" --show-bin-path)/headless-render"
XVFB=""
if [[ " ${ENGINES[*]} " == *" webkit "* && -z "${DISPLAY:-}" ]]; then
  Xvfb :97 -screen 0 1280x1024x24 >/dev/null 2>&1 &
  XVFB=$!
  export DISPLAY=:97
  trap 'kill $XVFB 2>/dev/null || true' EXIT
fi
for engine in "${ENGINES[@]}"; do
  python3 "$HERE/Benchmarks/streaming.py" "$BIN" "$engine" "$ROUNDS" 2>/dev/null
done
