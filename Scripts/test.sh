#!/usr/bin/env bash
# Runs every SchemeKit test suite on a fresh Debian 12 machine with Swift 6.3:
#   1. installs what the tests need with apt-get (only when missing),
#   2. builds the package and fails on any warning in our own code,
#   3. runs all Swift Testing suites (unit, handler, server, browser, package store),
#   4. runs the lifecycle stress test under the thread sanitizer,
#   5. builds the WebKitGTK adapter package and runs its real-engine tests under xvfb-run.
# Usage: bash Scripts/test.sh        (set SCHEMEKIT_SKIP_TSAN=1 or SCHEMEKIT_SKIP_WEBKIT=1 to skip a stage)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

log() { printf '\n==> %s\n' "$*"; }

# --- 1. System packages --------------------------------------------------------------------
apt_packages=(libwebkitgtk-6.0-dev xvfb xauth chromium media-types zip unzip python3 zlib1g-dev)
missing=()
for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    log "Installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- 2. Build, no warnings in our code --------------------------------------------------------
log "swift build --build-tests"
swift build --build-tests 2>&1 | tee /tmp/schemekit-build.log | grep -E "error|warning: .*(Sources|Tests|Samples)/" || true
if grep -E "^$root/(Sources|Tests)/.*: (warning|error):" /tmp/schemekit-build.log; then
    echo "Build produced warnings or errors in SchemeKit's own code (see above)." >&2
    exit 1
fi
grep -q "Build complete" /tmp/schemekit-build.log || { tail -40 /tmp/schemekit-build.log; exit 1; }

# --- 3. All suites ----------------------------------------------------------------------------
# Suites run in separate processes: the stress test saturates the cooperative thread pool (two
# threads on two cores) for seconds, and the server tests block threads on raw sockets; either
# would starve the loopback-origin tests (network, preload) if they shared a process, and so would
# the crash tests that wait on child processes.
run_suite() {  # run_suite NAME swift-test-arguments...
    local name=$1; shift
    log "swift test $*"
    swift test --skip-build "$@" 2>&1 | tee "/tmp/schemekit-$name.log"
    grep -qE "Test run with [0-9]+ tests? .*passed" "/tmp/schemekit-$name.log" || exit 1
}
run_suite core --skip Stress --skip SchemeServeTests --skip "Network|Preload"
run_suite network --filter "Network|Preload"
run_suite serve --filter SchemeServeTests
run_suite stress --filter Stress

# --- 4. Stress test under the thread sanitizer -----------------------------------------------
if [ "${SCHEMEKIT_SKIP_TSAN:-0}" != 1 ]; then
    log "swift test --sanitize=thread --filter Stress"
    swift test --scratch-path .build-tsan --sanitize=thread --filter Stress 2>&1 | tee /tmp/schemekit-tsan.log
    if grep -q "ThreadSanitizer" /tmp/schemekit-tsan.log; then
        echo "ThreadSanitizer reported a race (see above)." >&2
        exit 1
    fi
    grep -qE "Test run with [0-9]+ tests? .*passed" /tmp/schemekit-tsan.log || exit 1
fi

# --- 5. The real engine: WebKitGTK under Xvfb ------------------------------------------------
if [ "${SCHEMEKIT_SKIP_WEBKIT:-0}" != 1 ] && [ -f Samples/WebKitGTK/test.sh ]; then
    log "WebKitGTK adapter tests (xvfb-run)"
    bash Samples/WebKitGTK/test.sh
fi
log "All SchemeKit suites passed."
