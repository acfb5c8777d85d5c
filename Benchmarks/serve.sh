#!/usr/bin/env bash
# schemeserve vs nginx, same files, same wrk settings, same run — with bare Hummingbird as the
# floor of what any Hummingbird-based server can do here.
#
#   Benchmarks/serve.sh [duration-seconds] [connections] [rounds]
#
# Builds schemeserve and Benchmarks' `hummingbird-floor` (a bare Hummingbird Application
# answering from memory) in release mode, starts them and nginx (daemon off, 2 workers,
# access_log off, sendfile on) on their own loopback ports over a temporary directory holding a
# 1 KiB and a 10 MiB file, and runs wrk against each server for both files, interleaved, for
# `rounds` rounds (default 2). Prints the median requests/s and throughput (requests/s × size,
# wrk's own Transfer/sec is rounded to 2 digits), the ratios to nginx and to bare Hummingbird,
# and schemeserve's peak RSS (VmHWM). Needs: nginx (nginx-light), wrk.
set -euo pipefail

DURATION="${1:-10}"
CONNECTIONS="${2:-64}"
ROUNDS="${3:-2}"
THREADS=2
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
chmod 755 "$WORK" "$WORK/site"  # nginx workers run unprivileged
head -c 1024 /dev/urandom | base64 -w0 | head -c 1024 > "$WORK/site/small.txt"
head -c $((10 * 1024 * 1024)) /dev/urandom > "$WORK/site/large.bin"
chmod 644 "$WORK/site/"*
declare -A SIZE=([small.txt]=1024 [large.bin]=$((10 * 1024 * 1024)))

echo "building schemeserve and hummingbird-floor (release)…" >&2
(cd "$HERE" && swift build -c release --product schemeserve >&2)
BIN="$(cd "$HERE" && swift build -c release --show-bin-path)/schemeserve"
(cd "$HERE/Benchmarks" && swift build -c release --product hummingbird-floor >&2)
FLOOR_BIN="$(cd "$HERE/Benchmarks" && swift build -c release --show-bin-path)/hummingbird-floor"

"$BIN" serve "$WORK/site" --port 0 --no-access-log > "$WORK/ss.out" 2> "$WORK/ss.err" &
SS_PID=$!
PIDS+=("$SS_PID")
for _ in $(seq 100); do [[ -s "$WORK/ss.out" ]] && break; sleep 0.1; done
declare -A PORT
PORT[schemeserve]="$(head -1 "$WORK/ss.out" | sed -E 's#.*:([0-9]+)/$#\1#')"

PORT[hummingbird]="$(free_port)"
"$FLOOR_BIN" "$WORK/site" "${PORT[hummingbird]}" > /dev/null 2>&1 &
PIDS+=($!)

PORT[nginx]="$(free_port)"
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
  tcp_nopush on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${PORT[nginx]};
    root $WORK/site;
  }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)

SERVERS=(nginx hummingbird schemeserve)
for server in "${SERVERS[@]}"; do
  for file in small.txt large.bin; do
    status=""
    for _ in $(seq 50); do
      status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: localhost' "http://127.0.0.1:${PORT[$server]}/$file" || true)"
      [[ "$status" == 200 ]] && break
      sleep 0.1
    done
    [[ "$status" == 200 ]] || { echo "$server /$file answered $status" >&2; exit 1; }
  done
done

rps() { # url -> requests/s
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" -H "Host: localhost" "$1" | awk '/Requests\/sec/ {print $2}'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

declare -A RUNS
for round in $(seq "$ROUNDS"); do
  for file in small.txt large.bin; do
    for server in "${SERVERS[@]}"; do
      RUNS[$file.$server]+="$(rps "http://127.0.0.1:${PORT[$server]}/$file") "
    done
  done
done

printf '%-6s %-12s %12s %12s   %s\n' file server "requests/s" "MiB/s" "rounds"
declare -A R
for file in small.txt large.bin; do
  for server in "${SERVERS[@]}"; do
    R[$file.$server]="$(echo "${RUNS[$file.$server]}" | median)"
    printf '%-6s %-12s %12.0f %12.1f   %s\n' "${file%%.*}" "$server" "${R[$file.$server]}" \
      "$(echo "${R[$file.$server]} * ${SIZE[$file]} / 1048576" | bc -l)" "${RUNS[$file.$server]}"
  done
done
ratio() { echo "${R[$1.$2]} / ${R[$1.$3]}" | bc -l; }
echo
printf '1 KiB  requests/s: schemeserve/nginx %.2fx (target >= 1.0x); hummingbird/nginx %.2fx; schemeserve/hummingbird %.2fx\n' \
  "$(ratio small.txt schemeserve nginx)" "$(ratio small.txt hummingbird nginx)" "$(ratio small.txt schemeserve hummingbird)"
printf '10 MiB throughput: schemeserve/nginx %.2fx (target >= 0.9x); hummingbird/nginx %.2fx; schemeserve/hummingbird %.2fx\n' \
  "$(ratio large.bin schemeserve nginx)" "$(ratio large.bin hummingbird nginx)" "$(ratio large.bin schemeserve hummingbird)"
echo "schemeserve peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$SS_PID/status")"
