#!/usr/bin/env bash
# Headless Firefox next to headless Chromium: fetch() latency at 1 KiB, 64 KiB, 1 MiB and 10 MiB
# through the SchemeKitFirefox adapter (WebDriver BiDi), the SchemeKitChromium adapter (CBOR pipe)
# and nginx on loopback, each browser's nginx figure the baseline for its adapter; then sample-app
# page loads in Firefox on a new page versus a pooled page, and from nginx on the same pooled page;
# a <video preload="auto"> of a 10 s clip in Firefox (src to loadedmetadata, a seek to seeked) from
# the adapter and from nginx.
# Same files everywhere, `fetch(…, {cache: 'no-store'})` everywhere, warm browsers (a warm-up round
# is not recorded), interleaved rounds in random peer order, medians and p90. The figures come from
# `firefox-bench` (Benchmarks/Browsers/FirefoxBench, lines starting BENCH).
#
# usage: Benchmarks/firefox.sh [rounds]     (CONFIG=debug for a debug build; needs nginx, chromium,
#                                            firefox-esr, gstreamer1.0-tools)
set -euo pipefail
ROUNDS="${1:-5}"
CONFIG="${CONFIG:-release}"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$WORK/site" "$WORK/nginx/logs"
chmod 755 "$WORK" "$WORK/site"
for spec in 1k:1024 64k:65536 1m:1048576 10m:10485760; do
  head -c "${spec#*:}" /dev/urandom > "$WORK/site/${spec%%:*}"
done
echo '<!doctype html><title>blank</title>' > "$WORK/site/blank.html"
cp -r "$HERE/Samples/app" "$WORK/site/sample"
# The media clip (10 s, 320x240, VP8 in WebM, a key frame every second), as webkit.sh makes it.
gst-launch-1.0 -q videotestsrc num-buffers=300 pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 \
    ! vp8enc keyframe-max-dist=30 ! webmmux ! filesink location="$WORK/site/clip.webm" >/dev/null
chmod -R a+rX "$WORK/site"

echo "building ($CONFIG: firefox-bench)…" >&2
(cd "$HERE/Benchmarks" && swift build -c "$CONFIG" --product firefox-bench >&2)
BENCH_BIN="$(cd "$HERE/Benchmarks" && swift build -c "$CONFIG" --show-bin-path)/firefox-bench"

NGINX_PORT="$(free_port)"
cat > "$WORK/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root $WORK/site;
  }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)
sleep 0.5

SCHEMEKIT_BENCH_DIR="$WORK/site" SCHEMEKIT_BENCH_ROUNDS="$ROUNDS" SCHEMEKIT_BENCH_NGINX="http://127.0.0.1:$NGINX_PORT" \
  "$BENCH_BIN" 2>&1 | grep -E "^BENCH|error"

# Streaming into the page (issue 41): the first server-sent event, 96 MiB read as it arrives and a
# 1 KiB fetch through headless-render's loopback origin, nginx and Playwright's route.fulfill.
[ "${SCHEMEKIT_BENCH_STREAMING:-1}" = 0 ] || bash "$HERE/Benchmarks/streaming.sh" "$ROUNDS" firefox
