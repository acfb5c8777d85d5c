#!/usr/bin/env bash
# Headless Chromium: fetch() latency at 1 KiB, 64 KiB, 1 MiB and 10 MiB from the same Chromium
# through the SchemeKitChromium adapter (CBOR pipe and JSON pipe), Playwright's route.fulfill at the
# same virtual origin (Benchmarks/playwright-peer.py, the system chromium), schemeserve and nginx on
# loopback (the baseline); sample-app page loads on a new page versus a pooled page; the CPU
# time of the adapter's process per request; live reload (schemeserve --watch): from a file's save
# to the reloaded page's navigation start. Same files everywhere, `fetch(…, {cache: 'no-store'})`
# everywhere, warm browsers (a warm-up round is not recorded), interleaved rounds in random peer
# order, medians and p90. The figures come from `chromium-bench` (Benchmarks/Browsers/ChromiumBench,
# lines starting BENCH), run against the peers this script starts.
#
# usage: Benchmarks/chromium.sh [rounds]     (CONFIG=debug for a debug build; needs nginx, chromium)
#        (SCHEMEKIT_BENCH_STREAMING=0 leaves out the streaming rows, Benchmarks/streaming.sh)
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
chmod 644 "$WORK/site/"*

echo "building ($CONFIG: schemeserve, chromium-bench)…" >&2
(cd "$HERE" && swift build -c "$CONFIG" --product schemeserve >&2)
BIN="$(cd "$HERE" && swift build -c "$CONFIG" --show-bin-path)/schemeserve"
(cd "$HERE/Benchmarks" && swift build -c "$CONFIG" --product chromium-bench >&2)
BENCH_BIN="$(cd "$HERE/Benchmarks" && swift build -c "$CONFIG" --show-bin-path)/chromium-bench"

"$BIN" serve "$WORK/site" --port 0 --no-access-log > "$WORK/ss.out" 2> "$WORK/ss.err" &
PIDS+=($!)
for _ in $(seq 100); do [[ -s "$WORK/ss.out" ]] && break; sleep 0.1; done
SS_PORT="$(head -1 "$WORK/ss.out" | sed -E 's#.*:([0-9]+)/$#\1#')"

# Live reload: a second schemeserve with --watch on a page of its own.
mkdir -p "$WORK/watched"
echo '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body>live</body></html>' > "$WORK/watched/index.html"
echo 'body {}' > "$WORK/watched/style.css"
"$BIN" serve "$WORK/watched" --port 0 --watch --no-access-log > "$WORK/watch.out" 2> "$WORK/watch.err" &
PIDS+=($!)
for _ in $(seq 100); do [[ -s "$WORK/watch.out" ]] && break; sleep 0.1; done
WATCH_PORT="$(head -1 "$WORK/watch.out" | sed -E 's#.*:([0-9]+)/$#\1#')"

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

# Playwright's route.fulfill as a peer (pip install playwright==1.65.2; it drives the system
# chromium, no browser download), when Playwright for Python is there.
PLAYWRIGHT_ENV=()
if python3 -c 'import playwright' 2>/dev/null; then
  PLAYWRIGHT_ENV=(SCHEMEKIT_BENCH_PLAYWRIGHT="$HERE/Benchmarks/playwright-peer.py")
else
  echo "Playwright for Python not found: no Playwright column (pip install playwright==1.65.2)" >&2
fi

env "${PLAYWRIGHT_ENV[@]}" SCHEMEKIT_BENCH_DIR="$WORK/site" SCHEMEKIT_BENCH_ROUNDS="$ROUNDS" \
SCHEMEKIT_BENCH_SCHEMESERVE="http://127.0.0.1:$SS_PORT" SCHEMEKIT_BENCH_NGINX="http://127.0.0.1:$NGINX_PORT" \
SCHEMEKIT_BENCH_LIVERELOAD="http://127.0.0.1:$WATCH_PORT" SCHEMEKIT_BENCH_LIVERELOAD_DIR="$WORK/watched" \
  "$BENCH_BIN" 2>&1 | grep -E "^BENCH|error"

# Streaming into the page (issue 41): the first server-sent event, 96 MiB read as it arrives and a
# 1 KiB fetch through headless-render's loopback origin, nginx and Playwright's route.fulfill.
[ "${SCHEMEKIT_BENCH_STREAMING:-1}" = 0 ] || bash "$HERE/Benchmarks/streaming.sh" "$ROUNDS" chromium
