#!/usr/bin/env bash
# WebKitGTK benchmarks for SchemeKit (run from anywhere; needs libwebkitgtk-6.0-dev, xvfb, xauth,
# nginx-light, python3):
#   (a) cold vs warm: `headless-render --iterations N` on the sample app — a new view per load vs a
#       pooled, recycled view. Target: warm median >= 10x faster than cold.
#   (b) transport: the same page through app:// (SchemeKit), file:// and HTTP from nginx on
#       loopback, each on warm pooled views. Target: app:// <= 1.1x file://, and faster than HTTP.
#       WebKit keeps subresources in its memory cache between loads unless a response says
#       no-cache/no-store: file:// ones always (they carry no headers), HTTP ones from nginx by
#       heuristic freshness (Last-Modified), app:// ones when the handler allows it. So each
#       transport is measured in both regimes and like is compared with like:
#       - cached: app:// as headless-render serves a directory by default (`--cache immutable`,
#         the directory is a package snapshot), file://, and nginx's default headers;
#       - every load asks again: app:// `--cache revalidate` (the file handler's default
#         `Cache-Control: no-cache`) and nginx with `Cache-Control: no-store`.
#       The page's own fetch()es are `cache: 'no-store'`, so they reach the server in both.
#   (c) request latency: a page that fetch()es a small JSON file, a 64 KiB file and a 10 MiB file,
#       one request at a time (`cache: 'no-store'`, after a warm-up), through app:// and through
#       nginx: the transport alone, without a page load's noise. LATENCY_ROUNDS rounds (default 3).
#   (d) media: a <video> of a 10 s VP8 WebM (made with gst-launch-1.0), from app:// (through the media
#       extension and the handler chain) and from nginx: time from setting `src` to `loadedmetadata`,
#       and from setting `currentTime` to `seeked`, on a new element each time (a query string keeps
#       caches out). MEDIA_ROUNDS rounds (default 3) of 5 samples after a warm-up. Target: app:// <=
#       1.2x nginx.
# (a) and (b) are run on the sample app as is (an eager <video>: WebKitGTK sets up a media player
# for it on every load, through SchemeKit's media extension for app://), and on a copy without its
# <video> element, which shows what the rest of the page costs.
#
# The machine is shared and its load drifts over minutes, so the transports are measured side by
# side: ROUNDS rounds (default 3), each running every transport once with ITERATIONS cold and
# ITERATIONS warm loads, in turn; the medians are over the pooled samples of all rounds.
#
# Usage: Benchmarks/webkit.sh [APP_DIR] [ITERATIONS]   (defaults: Samples/app, 10; ROUNDS=3)
# SECTIONS=abcd (the default) picks the parts to run: SECTIONS=d measures media only.
# HEADLESS_RENDER=/path/to/headless-render skips the build and measures that binary (to compare
# two builds side by side).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
APP="$(cd "${1:-$ROOT/Samples/app}" && pwd)"
ITERATIONS="${2:-10}"
ROUNDS="${ROUNDS:-3}"
SECTIONS="${SECTIONS:-abcd}"
PORT="${NGINX_PORT:-18089}"
WORK="$(mktemp -d)"
NGINX_PID=""

cleanup() {
    if [[ -n "$NGINX_PID" ]]; then kill "$NGINX_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

RENDER="${HEADLESS_RENDER:-}"
if [[ -z "$RENDER" ]]; then
    echo "== building headless-render (release)"
    # The media extension (a product of its own) sits next to headless-render, where the adapter finds it.
    (cd "$ROOT" && swift build -c release --traits WebKitGTK --scratch-path .build-webkit --product SchemeKitWebKitGTKMedia 2>&1 | tail -1)
    (cd "$ROOT" && swift build -c release --traits WebKitGTK --scratch-path .build-webkit --product headless-render 2>&1 | tail -1)
    RENDER="$ROOT/.build-webkit/release/headless-render"
fi

# A copy of the app without its <video> element. nginx's workers run unprivileged: mktemp's 0700
# directory would answer every request with a (small, fast) 403 page.
chmod 755 "$WORK"
cp -r "$APP" "$WORK/novideo"
chmod -R a+rX "$WORK/novideo"
python3 - "$WORK/novideo/index.html" <<'PY'
import re, sys
path = sys.argv[1]
html = open(path).read()
open(path, "w").write(re.sub(r"<video.*?</video>", "", html, flags=re.S))
PY

# The latency page and its files.
mkdir -p "$WORK/latency"
echo '<!doctype html><title>latency</title>' >"$WORK/latency/index.html"
echo '{"name":"SchemeKit","answer":42}' >"$WORK/latency/small.json"
head -c 65536 /dev/urandom >"$WORK/latency/64k.bin"
head -c 10485760 /dev/urandom >"$WORK/latency/10m.bin"
chmod -R a+rX "$WORK/latency"

# The media page and its clip (10 s, 320x240, VP8 in WebM, a key frame every second).
mkdir -p "$WORK/media"
echo '<!doctype html><title>media</title>' >"$WORK/media/index.html"
gst-launch-1.0 -q videotestsrc num-buffers=300 pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 \
    ! vp8enc keyframe-max-dist=30 ! webmmux ! filesink location="$WORK/media/clip.webm" >/dev/null
chmod -R a+rX "$WORK/media"

# nginx on loopback, its own prefix and config, serving every copy.
mkdir -p "$WORK/nginx/logs"
cat > "$WORK/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    types { text/javascript mjs; }
    access_log off;
    sendfile on;
    server {
        listen 127.0.0.1:$PORT;
        location /full/ { alias $APP/; }
        location /novideo/ { alias $WORK/novideo/; }
        location /full-nostore/ { alias $APP/; add_header Cache-Control no-store; }
        location /novideo-nostore/ { alias $WORK/novideo/; add_header Cache-Control no-store; }
        location /latency/ { alias $WORK/latency/; add_header Cache-Control no-store; }
        location /media/ { alias $WORK/media/; add_header Cache-Control no-store; }
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!
for _ in $(seq 50); do
    if python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 0.2)" 2>/dev/null; then break; fi
    sleep 0.1
done
# Every nginx location must serve the page and its files (not an error page).
for path in {full,novideo,full-nostore,novideo-nostore}/{index.html,css/style.css,js/util.mjs,fonts/dejavu-sans-subset.woff2} \
    latency/{index.html,small.json,64k.bin,10m.bin} media/{index.html,clip.webm}; do
    status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/$path" || true)"
    [[ "$status" == 200 ]] || { echo "nginx /$path answered $status" >&2; exit 1; }
done

# run NAME DIR [extra args…] → appends the JSON report to $WORK/NAME.jsonl
run() {
    local name="$1"
    shift
    xvfb-run -a "$RENDER" "$@" --iterations "$ITERATIONS" --json --timeout 600 2>/dev/null | tail -1 >>"$WORK/$name.jsonl"
}

# stat NAME cold|warm median|p90 → over every sample of every round
stat() {
    python3 - "$WORK/$1.jsonl" "$2" "$3" <<'PY'
import json, math, sys
samples = sorted(x for line in open(sys.argv[1]) if line.strip() for x in json.loads(line)[sys.argv[2] + "Ms"])
fraction = 0.5 if sys.argv[3] == "median" else 0.9
print("%.1f" % samples[max(0, min(len(samples) - 1, math.ceil(len(samples) * fraction) - 1))])
PY
}

ratio() { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

variants=(full novideo)
[[ "$SECTIONS" == *a* || "$SECTIONS" == *b* ]] || variants=()
for variant in "${variants[@]}"; do
    dir="$APP"
    [[ "$variant" == novideo ]] && dir="$WORK/novideo"
    echo "== $variant page ($ROUNDS rounds x $ITERATIONS iterations per transport)"
    for _ in $(seq "$ROUNDS"); do
        run "$variant-app" "$dir"
        run "$variant-revalidate" "$dir" --cache revalidate
        run "$variant-file" "$dir" --url "file://$dir/index.html"
        run "$variant-http" "$dir" --url "http://127.0.0.1:$PORT/$variant/index.html"
        run "$variant-nostore" "$dir" --url "http://127.0.0.1:$PORT/$variant-nostore/index.html"
    done
    cold="$(stat "$variant-app" cold median)"
    warm="$(stat "$variant-app" warm median)"
    file_warm="$(stat "$variant-file" warm median)"
    http_warm="$(stat "$variant-http" warm median)"
    nostore_warm="$(stat "$variant-nostore" warm median)"
    revalidate_warm="$(stat "$variant-revalidate" warm median)"
    echo "(a) app:// cold median ${cold} ms (p90 $(stat "$variant-app" cold p90)), warm median ${warm} ms (p90 $(stat "$variant-app" warm p90)): warm is $(ratio "$cold" "$warm")x faster (target >= 10x)"
    echo "(b) warm medians: app:// ${warm} ms, file:// ${file_warm} ms, http:// (nginx, WebKit-cached) ${http_warm} ms;"
    echo "    app:// no-cache ${revalidate_warm} ms, http:// (nginx, no-store) ${nostore_warm} ms"
    echo "    app:// / file:// = $(ratio "$warm" "$file_warm") (target <= 1.10); app:// / http:// cached = $(ratio "$warm" "$http_warm") (target < 1)"
    echo "    app:// no-cache / http:// no-store = $(ratio "$revalidate_warm" "$nostore_warm") (target < 1); app:// no-cache / file:// = $(ratio "$revalidate_warm" "$file_warm")"
done

# (c) Request latency: ms per fetch(), one at a time, after up to 20 warm-up fetches.
LATENCY_JS='(async () => {
  const perFetch = async (url, count) => {
    for (let i = 0; i < Math.min(count, 20); i++) await (await fetch(url, { cache: "no-store" })).arrayBuffer();
    const start = performance.now();
    for (let i = 0; i < count; i++) await (await fetch(url, { cache: "no-store" })).arrayBuffer();
    return (performance.now() - start) / count;
  };
  return [await perFetch("small.json", 300), await perFetch("64k.bin", 100), await perFetch("10m.bin", 5)];
})()'
latency() {
    local name="$1"
    shift
    xvfb-run -a "$RENDER" "$WORK/latency" "$@" --json --eval "$LATENCY_JS" --timeout 120 2>/dev/null | tail -1 \
        | python3 -c "import json, sys; print(' '.join('%.3f' % x for x in json.loads(json.load(sys.stdin)['eval'])))" \
            >>"$WORK/latency-$name.txt"
}
column_median() {
    python3 -c "import statistics, sys; print('%.3f' % statistics.median(float(l.split()[int(sys.argv[2])]) for l in open(sys.argv[1]) if l.strip()))" "$1" "$2"
}
if [[ "$SECTIONS" == *c* ]]; then
echo "== request latency (${LATENCY_ROUNDS:-3} rounds; ms per sequential fetch, no-store)"
for _ in $(seq "${LATENCY_ROUNDS:-3}"); do
    latency app
    latency http --url "http://127.0.0.1:$PORT/latency/index.html"
done
names=("small JSON" "64 KiB file" "10 MiB file")
for column in 0 1 2; do
    what="${names[$column]}"
    app_ms="$(column_median "$WORK/latency-app.txt" "$column")"
    http_ms="$(column_median "$WORK/latency-http.txt" "$column")"
    echo "(c) $what: app:// ${app_ms} ms, http:// (nginx) ${http_ms} ms: app:// / http:// = $(ratio "$app_ms" "$http_ms") (target < 1)"
done
fi

# (d) Media: ms from src to loadedmetadata, and from currentTime = 5 to seeked, per new <video>.
MEDIA_JS='(async () => {
  const once = (element, name) => new Promise((resolve, reject) => {
    element.addEventListener(name, resolve, { once: true });
    element.addEventListener("error", () => reject(new Error("media error " + element.error?.code)), { once: true });
  });
  const sample = async (n) => {
    const video = document.createElement("video");
    video.muted = true;
    video.preload = "auto";
    document.body.append(video);
    let start = performance.now();
    const metadata = once(video, "loadedmetadata");
    video.src = "clip.webm?n=" + n + "-" + Math.random();
    await metadata;
    const toMetadata = performance.now() - start;
    start = performance.now();
    const seeked = once(video, "seeked");
    video.currentTime = 5;
    await seeked;
    const toSeeked = performance.now() - start;
    video.removeAttribute("src");
    video.load();
    video.remove();
    return [toMetadata, toSeeked];
  };
  await sample(0);
  const samples = [];
  for (let i = 1; i <= 5; i++) samples.push(await sample(i));
  return samples;
})()'
media() {
    local name="$1"
    shift
    xvfb-run -a "$RENDER" "$WORK/media" "$@" --json --eval "$MEDIA_JS" --timeout 120 2>/dev/null | tail -1 \
        | python3 -c "import json, sys; [print('%.3f %.3f' % tuple(s)) for s in json.loads(json.load(sys.stdin)['eval'])]" \
            >>"$WORK/media-$name.txt"
}
[[ "$SECTIONS" == *d* ]] || exit 0
echo "== media (${MEDIA_ROUNDS:-3} rounds x 5 samples; ms)"
for _ in $(seq "${MEDIA_ROUNDS:-3}"); do
    media app --cache revalidate
    media http --url "http://127.0.0.1:$PORT/media/index.html"
done
names=("src to loadedmetadata" "currentTime to seeked")
for column in 0 1; do
    what="${names[$column]}"
    app_ms="$(column_median "$WORK/media-app.txt" "$column")"
    http_ms="$(column_median "$WORK/media-http.txt" "$column")"
    echo "(d) $what: app:// ${app_ms} ms, http:// (nginx) ${http_ms} ms: app:// / http:// = $(ratio "$app_ms" "$http_ms") (target <= 1.2)"
done

# Streaming into the page (issue 41): the first server-sent event, 96 MiB read as it arrives and a
# 1 KiB fetch through headless-render's custom scheme and nginx.
[ "${SCHEMEKIT_BENCH_STREAMING:-1}" = 0 ] || bash "$ROOT/Benchmarks/streaming.sh" "$ROUNDS" webkit
