#!/usr/bin/env bash
# Streaming into a page on each browser, side by side in one run: SchemeKit's loopback origin
# (headless-render, release build) against nginx on loopback and, on Chromium, Playwright's
# route.fulfill — the first of three server-sent events, 96 MiB read as it comes, a 1 KiB fetch,
# and headless-render's peak RSS. See Benchmarks/streaming.py for what is measured and how.
#
# usage: Benchmarks/streaming.sh [rounds] [engine…]   (default: 5 rounds, chromium and firefox;
#        needs nginx, chromium, firefox-esr, and Playwright for Python for its column)
set -euo pipefail
ROUNDS="${1:-5}"
shift || true
ENGINES=("$@")
((${#ENGINES[@]})) || ENGINES=(chromium firefox)
HERE="$(cd "$(dirname "$0")/.." && pwd)"
echo "building headless-render (release, traits Chromium and Firefox)…" >&2
(cd "$HERE" && swift build -c release --traits Chromium,Firefox --product headless-render >&2)
BIN="$(cd "$HERE" && swift build -c release --traits Chromium,Firefox --show-bin-path)/headless-render"
for engine in "${ENGINES[@]}"; do
  python3 "$HERE/Benchmarks/streaming.py" "$BIN" "$engine" "$ROUNDS" 2>/dev/null
done
