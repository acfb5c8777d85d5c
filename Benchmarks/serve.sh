#!/usr/bin/env bash
# schemeserve against every server a developer would pick instead, one core each.
#
#   Benchmarks/serve.sh [duration-seconds] [rounds] [servers…]
#
# Each server runs pinned to core 0 (`taskset -c 0`) with one worker, process or event loop;
# wrk runs pinned to core 1 with one thread, so the figure is what one core of each server does,
# not how well two programs share two cores. Servers, all over the same temporary directory:
#   nginx        1 worker, sendfile on, open_file_cache off      (Debian `nginx`)
#   nginx-ofc    the same with open_file_cache on
#   caddy        `caddy file-server`, GOMAXPROCS=1               (Debian `caddy`)
#   http-server  Node's http-server                              (Debian `node-http-server`)
#   python       `python3 -m http.server`
#   nio-floor    bare SwiftNIO answering from memory (Benchmarks' `nio-floor`): the floor of any
#                NIO-based server here
#   schemeserve  release build, --event-loops 1, no access log
#   schemeserve-log  the same with its access log on (to a file), to measure what the log costs
# Debian's node-http-server cannot start as packaged: its CLI needs `union` (not packaged) and
# `require`s chalk 5, which is ESM-only. Its file server (`lib/core`, the part that serves files)
# runs fine under Node's own `http` module with NODE_PATH=/usr/share/nodejs, which is what runs here.
#
# Files: 1 KiB, 64 KiB and 256 KiB at 64 connections, 10 MiB at 8 connections, asked with wrk's bare GET;
# then a browser's request (Chromium's headers: Accept-Encoding gzip, deflate, br, zstd, Accept,
# User-Agent, Sec-Fetch-*, Accept-Language) for a 1 KiB script (`app.js`: gzip on the fly; nginx with
# `gzip on`, level 1, for JavaScript) and a 1 KiB image (`logo.png`), 64 connections. Every (row,
# server) pair once per round, rounds interleaved. Prints per pair the median requests/s, the median of the
# rounds' p99 latencies (wrk --latency), the ratio to nginx (open_file_cache off) and each round's
# figure; then the same rows below saturation for nginx, nio-floor and schemeserve (each connection
# pausing between requests: p99 then measures the server, not wrk's queue); then 10 MiB at 64
# connections once against schemeserve and nginx, with each one's peak RSS (VmHWM) after it; and
# 1 KiB requests' p99 while 8 connections pull 10 MiB from the same server. Needs: nginx, wrk, caddy, node-http-server, taskset.
set -euo pipefail

DURATION="${1:-5}"
ROUNDS="${2:-3}"
shift 2 2>/dev/null || shift $# || true
ALL_SERVERS=(nginx nginx-ofc caddy http-server python nio-floor schemeserve)
SERVERS=("$@")
((${#SERVERS[@]})) || SERVERS=("${ALL_SERVERS[@]}")
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
declare -A PID
cleanup() {
    for pid in "${PID[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Only ever run in the background (`on_core0 server … &`): `exec` makes `$!` the server itself, so the
# cleanup kills the server and not just the subshell that started it (which left servers running).
on_core0() { exec taskset -c 0 "$@"; }

mkdir -p "$WORK/site"
chmod 755 "$WORK" "$WORK/site" # nginx's worker runs unprivileged
# Random text of N bytes. Not `head | base64 | head`: under `pipefail` the first `head` closing early
# can kill `base64` with SIGPIPE, which ended the whole run (exit 141) now and then.
random_text() { python3 -c "import base64, os, sys; sys.stdout.write(base64.b64encode(os.urandom($1)).decode()[:$1])"; }
random_text 1024 >"$WORK/site/small.txt"
random_text $((64 * 1024)) >"$WORK/site/medium.txt"
head -c $((256 * 1024)) /dev/urandom >"$WORK/site/bundle.bin" # a web app's script bundle, say
head -c $((10 * 1024 * 1024)) /dev/urandom >"$WORK/site/large.bin"
# A script as scripts are (the sample app's own, 1 KiB of it) and an image (random bytes).
head -c 1024 "$HERE/Samples/app/index.html" | tail -c +200 >"$WORK/site/app.js"
head -c $((1024 - $(stat -c %s "$WORK/site/app.js"))) "$HERE/Samples/app/js/main.mjs" >>"$WORK/site/app.js"
head -c 1024 /dev/urandom >"$WORK/site/logo.png"
chmod 644 "$WORK/site/"*
# A row is a file and the request shape wrk sends for it.
ROWS=(small.txt medium.txt bundle.bin large.bin app.js logo.png)
declare -A FILE=([small.txt]=small.txt [medium.txt]=medium.txt [bundle.bin]=bundle.bin [large.bin]=large.bin [app.js]=app.js [logo.png]=logo.png)
declare -A SIZE=([small.txt]=1024 [medium.txt]=65536 [bundle.bin]=262144 [large.bin]=$((10 * 1024 * 1024)) [app.js]=1024 [logo.png]=1024)
declare -A CONNS=([small.txt]=64 [medium.txt]=64 [bundle.bin]=64 [large.bin]=8 [app.js]=64 [logo.png]=64)
declare -A LABEL=([small.txt]="1 KiB" [medium.txt]="64 KiB" [bundle.bin]="256 KiB" [large.bin]="10 MiB" [app.js]="JS 1K br" [logo.png]="PNG 1K br")
declare -A SHAPE=([small.txt]=bare [medium.txt]=bare [bundle.bin]=bare [large.bin]=bare [app.js]=script [logo.png]=image)
# Chromium 156's headers for a script and an image of the same origin.
BROWSER=(-H "Accept-Encoding: gzip, deflate, br, zstd" -H "Accept-Language: en-US,en;q=0.9"
    -H "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"
    -H "Sec-Fetch-Site: same-origin" -H "sec-ch-ua-platform: \"Linux\"" -H "sec-ch-ua-mobile: ?0")
declare -A SHAPE_HEADERS
SHAPE_HEADERS[script]="Accept: */*|Sec-Fetch-Mode: no-cors|Sec-Fetch-Dest: script"
SHAPE_HEADERS[image]="Accept: image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8|Sec-Fetch-Mode: no-cors|Sec-Fetch-Dest: image"
shape_args() { # shape -> wrk -H arguments, one per line
    [[ "$1" == bare ]] && return
    printf '%s\n' "${BROWSER[@]}"
    local IFS='|'
    for header in ${SHAPE_HEADERS[$1]}; do printf -- '-H\n%s\n' "$header"; done
}

echo "building schemeserve and nio-floor (release)…" >&2
(cd "$HERE" && swift build -c release --product schemeserve >&2)
SS_BIN="$(cd "$HERE" && swift build -c release --show-bin-path)/schemeserve"
(cd "$HERE/Benchmarks" && swift build -c release --product nio-floor >&2)
FLOOR_BIN="$(cd "$HERE/Benchmarks" && swift build -c release --show-bin-path)/nio-floor"

declare -A PORT
nginx_conf() { # name port extra-directives
    mkdir -p "$WORK/$1/logs"
    cat >"$WORK/$1/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/$1/nginx.pid;
error_log $WORK/$1/logs/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip on;
  gzip_comp_level 1;
  gzip_vary on;
  gzip_types text/javascript application/javascript;
  $3
  server { listen 127.0.0.1:$2; root $WORK/site; }
}
CONF
}

start() { # server
    local port
    port="$(free_port)"
    case $1 in
    nginx)
        nginx_conf nginx "$port" "open_file_cache off;"
        on_core0 nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
        ;;
    nginx-ofc)
        nginx_conf nginx-ofc "$port" "open_file_cache max=1000 inactive=60s; open_file_cache_valid 60s;"
        on_core0 nginx -c "$WORK/nginx-ofc/nginx.conf" -p "$WORK/nginx-ofc" &
        ;;
    caddy)
        GOMAXPROCS=1 XDG_DATA_HOME="$WORK/caddy" XDG_CONFIG_HOME="$WORK/caddy" \
            on_core0 caddy file-server --root "$WORK/site" --listen "127.0.0.1:$port" >"$WORK/caddy.log" 2>&1 &
        ;;
    http-server)
        NODE_PATH=/usr/share/nodejs on_core0 node -e "
            const serve = require('/usr/share/nodejs/http-server/lib/core')({root: '$WORK/site', showDir: false, autoIndex: false});
            require('http').createServer((req, res) => serve(req, res)).listen($port, '127.0.0.1');" \
            >"$WORK/http-server.log" 2>&1 &
        ;;
    python)
        on_core0 python3 -m http.server --bind 127.0.0.1 --directory "$WORK/site" "$port" >/dev/null 2>&1 &
        ;;
    nio-floor)
        on_core0 "$FLOOR_BIN" "$WORK/site" "$port" 1 >/dev/null 2>&1 &
        ;;
    schemeserve)
        on_core0 "$SS_BIN" serve "$WORK/site" --port "$port" ${SCHEMESERVE_FLAGS---event-loops 1} --no-access-log \
            >"$WORK/ss.out" 2>"$WORK/ss.err" &
        ;;
    schemeserve-log)
        on_core0 "$SS_BIN" serve "$WORK/site" --port "$port" ${SCHEMESERVE_FLAGS---event-loops 1} \
            >"$WORK/ss-log.out" 2>"$WORK/ss-log.err" &
        ;;
    esac
    PID[$1]=$!
    PORT[$1]=$port
}

for server in "${SERVERS[@]}"; do start "$server"; done
for server in "${SERVERS[@]}"; do
    for file in "${ROWS[@]}"; do
        status=""
        for _ in $(seq 100); do
            status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: localhost' "http://127.0.0.1:${PORT[$server]}/$file" || true)"
            [[ "$status" == 200 ]] && break
            sleep 0.1
        done
        [[ "$status" == 200 ]] || {
            echo "$server /$file answered $status" >&2
            exit 1
        }
    done
done

# wrk on core 1: prints "requests/s p99-ms".
measure() { # url connections [shape] [pause-ms: each connection waits this long between requests]
    local extra=()
    mapfile -t extra < <(shape_args "${3:-bare}")
    if [[ -n "${4:-}" ]]; then
        echo "function delay() return $4 end" >"$WORK/pace-$4.lua"
        extra+=(-s "$WORK/pace-$4.lua")
    fi
    taskset -c 1 wrk -t1 -c"$2" -d"${DURATION}s" --latency -H "Host: localhost" "${extra[@]}" "$1" | awk '
        /Requests\/sec/ { rps = $2 }
        $1 == "99%" { v = $2; unit = v; gsub(/[0-9.]/, "", unit); gsub(/[a-z]/, "", v)
                      p99 = (unit == "us") ? v / 1000 : (unit == "s") ? v * 1000 : (unit == "m") ? v * 60000 : v }
        END { printf "%s %.3f\n", rps, p99 }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# Every (row, server) pair once per round, rounds interleaved, into two arrays (requests/s and
# p99 by "row.server"); with "paced", each connection pauses ${PACE[row]} ms between requests.
run_rounds() { # rps-array p99-array paced|full servers...
    local -n rps_out=$1 p99_out=$2
    local mode=$3 round file server rps p99 pause
    shift 3
    for round in $(seq "$ROUNDS"); do
        echo "${mode} round $round/$ROUNDS…" >&2
        for file in "${ROWS[@]}"; do
            pause=""
            [[ "$mode" == paced ]] && pause="${PACE[$file]}"
            for server in "$@"; do
                read -r rps p99 < <(measure "http://127.0.0.1:${PORT[$server]}/${FILE[$file]}" "${CONNS[$file]}" \
                    "${SHAPE[$file]}" "$pause")
                rps_out[$file.$server]+="$rps "
                p99_out[$file.$server]+="$p99 "
            done
        done
    done
}

declare -A PACE=([small.txt]=2 [medium.txt]=2 [bundle.bin]=4 [large.bin]=60 [app.js]=2 [logo.png]=2)
declare -A RPS P99
run_rounds RPS P99 full "${SERVERS[@]}"

echo
echo "One core per server (taskset -c 0, one worker/event loop), wrk -t1 on core 1, ${DURATION} s × $ROUNDS interleaved rounds; medians."
printf '%-9s %-12s %5s %12s %10s %9s %9s   %s\n' row server conns "requests/s" "MiB/s" "p99 ms" "x nginx" "rounds (requests/s)"
declare -A MED
for file in "${ROWS[@]}"; do
    for server in "${SERVERS[@]}"; do
        MED[$file.$server]="$(echo "${RPS[$file.$server]}" | median)"
    done
    for server in "${SERVERS[@]}"; do
        ratio="-"
        [[ -n "${MED[$file.nginx]:-}" ]] && ratio="$(printf '%.2f' "$(echo "${MED[$file.$server]} / ${MED[$file.nginx]}" | bc -l)")"
        printf '%-9s %-12s %5s %12.0f %10.1f %9.2f %9s   %s\n' "${LABEL[$file]}" "$server" "${CONNS[$file]}" \
            "${MED[$file.$server]}" "$(echo "${MED[$file.$server]} * ${SIZE[$file]} / 1048576" | bc -l)" \
            "$(echo "${P99[$file.$server]}" | median)" "$ratio" "${RPS[$file.$server]}"
    done
done

# Latency below saturation: every connection pauses between requests (2 ms for the small files,
# 60 ms for 10 MiB), so neither server nor wrk runs flat out and p99 is the server's, not wrk's
# queue (a saturated closed loop gives the faster server the longer queue). The load then follows
# each server's latency: the figure is its requests/s and p99 at that load.
PACED=()
for server in nginx nio-floor schemeserve; do [[ -n "${PORT[$server]:-}" ]] && PACED+=("$server"); done
declare -A PRPS PP99
run_rounds PRPS PP99 paced "${PACED[@]}"
echo
echo "Below saturation (each connection pauses ${PACE[small.txt]} ms, 10 MiB ${PACE[large.bin]} ms, between requests); medians."
printf '%-9s %-12s %5s %12s %9s %12s\n' row server conns "requests/s" "p99 ms" "p99 x nginx"
for file in "${ROWS[@]}"; do
    for server in "${PACED[@]}"; do
        p99="$(echo "${PP99[$file.$server]}" | median)"
        ratio="-"
        [[ -n "${PP99[$file.nginx]:-}" ]] && ratio="$(printf '%.2f' "$(echo "$p99 / $(echo "${PP99[$file.nginx]}" | median)" | bc -l)")"
        printf '%-9s %-12s %5s %12.0f %9.2f %12s\n' "${LABEL[$file]}" "$server" "${CONNS[$file]}" \
            "$(echo "${PRPS[$file.$server]}" | median)" "$p99" "$ratio"
    done
done

# Small requests beside large ones: 2 connections ask for 1 KiB while 8 pull 10 MiB from the same
# server (both wrk on core 1). The 1 KiB p99 is how long a page's small files wait behind a video
# or a bundle on the same loop (schemeserve sends at most 1 MiB per connection per turn of its loop,
# nginx 2 MiB per turn: `sendfile_max_chunk`).
MIXED=()
for server in nginx schemeserve; do [[ -n "${PORT[$server]:-}" ]] && MIXED+=("$server"); done
declare -A MIX_P99 MIX_BIG
for round in $(seq "$ROUNDS"); do
    echo "mixed round $round/$ROUNDS…" >&2
    for server in "${MIXED[@]}"; do
        taskset -c 1 wrk -t1 -c8 -d"$((DURATION + 1))s" -H "Host: localhost" \
            "http://127.0.0.1:${PORT[$server]}/large.bin" >"$WORK/mixed-big.txt" &
        big=$!
        sleep 0.5
        read -r _ p99 < <(measure "http://127.0.0.1:${PORT[$server]}/small.txt" 2)
        wait "$big"
        MIX_P99[$server]+="$p99 "
        MIX_BIG[$server]+="$(awk '/Requests\/sec/ {print $2}' "$WORK/mixed-big.txt") "
    done
done
echo
echo "1 KiB at 2 connections while 8 connections pull 10 MiB from the same server; medians."
printf '%-12s %12s %12s   %s
' server "1 KiB p99 ms" "10 MiB req/s" "rounds (p99 ms)"
for server in "${MIXED[@]}"; do
    printf '%-12s %12.2f %12.0f   %s
' "$server" "$(echo "${MIX_P99[$server]}" | median)" \
        "$(echo "${MIX_BIG[$server]}" | median)" "${MIX_P99[$server]}"
done

# Memory under many large downloads at once.
rss() { # pid -> peak RSS in MiB, the process and its children (nginx's worker)
    local total=0 kb
    for p in "$1" $(pgrep -P "$1" || true); do
        kb="$(awk '/VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)"
        total=$((total > kb ? total : kb))
    done
    echo $((total / 1024))
}
echo
for server in schemeserve nginx; do
    [[ -n "${PORT[$server]:-}" ]] || continue
    read -r rps p99 < <(measure "http://127.0.0.1:${PORT[$server]}/large.bin" 64)
    printf '10 MiB at 64 connections: %-12s %8.0f requests/s, p99 %.1f ms, peak RSS %s MiB\n' \
        "$server" "$rps" "$p99" "$(rss "${PID[$server]}")"
done
