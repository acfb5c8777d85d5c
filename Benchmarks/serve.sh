#!/usr/bin/env bash
# schemeserve vs nginx, same files, same wrk settings, same run.
#
#   Benchmarks/serve.sh [duration-seconds] [connections]
#
# Builds schemeserve in release mode, starts it and nginx (daemon off, 2 workers, access_log
# off, sendfile on) on their own loopback ports over a temporary directory holding a 1 KiB and a
# 10 MiB file, runs wrk against each for both files, prints requests/s, throughput, the ratios
# and schemeserve's peak RSS (VmHWM). Needs: nginx (nginx-light), wrk.
set -euo pipefail

DURATION="${1:-10}"
CONNECTIONS="${2:-64}"
THREADS=2
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
SS_PID=""
NGINX_PID=""
cleanup() {
  [[ -n "$SS_PID" ]] && kill "$SS_PID" 2>/dev/null || true
  [[ -n "$NGINX_PID" ]] && kill "$NGINX_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/site" "$WORK/nginx/logs"
chmod 755 "$WORK" "$WORK/site"  # nginx workers run unprivileged
head -c 1024 /dev/urandom | base64 -w0 | head -c 1024 > "$WORK/site/small.txt"
head -c $((10 * 1024 * 1024)) /dev/urandom > "$WORK/site/large.bin"
chmod 644 "$WORK/site/"*

echo "building schemeserve (release)…" >&2
(cd "$HERE" && swift build -c release --product schemeserve >&2)
BIN="$(cd "$HERE" && swift build -c release --show-bin-path)/schemeserve"

"$BIN" serve "$WORK/site" --port 0 --no-access-log > "$WORK/ss.out" 2> "$WORK/ss.err" &
SS_PID=$!
for _ in $(seq 100); do [[ -s "$WORK/ss.out" ]] && break; sleep 0.1; done
SS_PORT="$(head -1 "$WORK/ss.out" | sed -E 's#.*:([0-9]+)/$#\1#')"

NGINX_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
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
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/site;
  }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!
sleep 0.5
for port in "$SS_PORT" "$NGINX_PORT"; do
  for file in small.txt large.bin; do
    status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: localhost' "http://127.0.0.1:$port/$file")"
    [[ "$status" == 200 ]] || { echo "port $port /$file answered $status" >&2; exit 1; }
  done
done

run() { # url -> "rps bytes_per_sec"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" -H "Host: localhost" "$1" \
    | awk '/Requests\/sec/ {rps=$2} /Transfer\/sec/ {t=$2} END {
        m=1; if (t ~ /GB$/) m=1024*1024*1024; else if (t ~ /MB$/) m=1024*1024; else if (t ~ /KB$/) m=1024;
        sub(/[A-Za-z]+$/, "", t); printf "%s %.0f\n", rps, t*m }'
}

printf '%-8s %-12s %14s %16s\n' file server "requests/s" "MiB/s"
declare -A R
for file in small.txt large.bin; do
  for server in nginx schemeserve; do
    port=$([[ $server == nginx ]] && echo "$NGINX_PORT" || echo "$SS_PORT")
    read -r rps bps < <(run "http://127.0.0.1:$port/$file")
    R[$file.$server.rps]=$rps; R[$file.$server.bps]=$bps
    printf '%-8s %-12s %14.0f %16.1f\n' "${file%%.*}" "$server" "$rps" "$(echo "$bps / 1048576" | bc -l)"
  done
done
echo
printf '1 KiB  requests/s ratio (schemeserve / nginx): %.2fx (target >= 1.0x)\n' \
  "$(echo "${R[small.txt.schemeserve.rps]} / ${R[small.txt.nginx.rps]}" | bc -l)"
printf '10 MiB throughput ratio (schemeserve / nginx): %.2fx (target >= 0.9x)\n' \
  "$(echo "${R[large.bin.schemeserve.bps]} / ${R[large.bin.nginx.bps]}" | bc -l)"
echo "schemeserve peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$SS_PID/status")"
