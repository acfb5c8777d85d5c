#!/usr/bin/env bash
# Builds the WebKitGTK adapter package (and SchemeKit, by path) and runs its tests in the real
# engine under a virtual X server. Needs the apt packages libwebkitgtk-6.0-dev, xvfb and xauth,
# installed with their recommends (WebKit's GStreamer plugins); CI installs them.
set -euo pipefail
cd "$(dirname "$0")"
build_log=$(mktemp)
test_log=$(mktemp)
trap 'rm -f "$build_log" "$test_log"' EXIT

# pkg-config hands SwiftPM flags it refuses to pass on ("prohibited flag(s): -pthread …"): noise.
if ! swift build --build-tests >"$build_log" 2>&1; then
    grep -v "prohibited flag" "$build_log" >&2
    exit 1
fi
grep -v "prohibited flag" "$build_log" | grep -E "warning:|error:|Build complete" || true

xvfb-run -a swift test --skip-build 2>&1 | tee "$test_log"
grep -qE "Test run with [0-9]+ tests? .*passed" "$test_log"
