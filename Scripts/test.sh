#!/usr/bin/env bash
# Runs every SchemeKit test suite on a fresh Debian 12 machine with Swift 6.3:
#   1. installs what the tests need with apt-get (only when missing),
#   2. builds the package with every trait on and fails on any warning in our own code,
#   3. runs all Swift Testing suites (unit, handler, server, package store, memory, stress),
#   4. runs the real-engine suites: headless Chromium, headless Firefox, and WebKitGTK under
#      xvfb-run, then headless-render on every engine (PDFs checked with poppler's pdftotext), the HAR
#      round trip and schemeserve's reloads with the real Playwright for Python (pinned, installed
#      with pip when missing),
#   5. runs every suite of the default build under the thread sanitizer (the stress test included),
#   6. compiles every ```swift snippet of every Markdown file (Scripts/check-snippets.sh), builds
#      the DocC documentation of every library with warnings as errors (Scripts/docs.sh), and
#      the Benchmarks package,
#   7. a fuzz smoke: every libFuzzer target for 30 s under AddressSanitizer (Scripts/fuzz.sh).
# Usage: bash Scripts/test.sh        (set SCHEMEKIT_SKIP_TSAN=1, SCHEMEKIT_SKIP_WEBKIT=1,
#                                     SCHEMEKIT_SKIP_SNIPPETS=1, SCHEMEKIT_SKIP_DOCS=1, SCHEMEKIT_SKIP_CHROMIUM=1,
#                                     SCHEMEKIT_SKIP_FIREFOX=1, SCHEMEKIT_SKIP_BENCHMARKS_BUILD=1,
#                                     SCHEMEKIT_SKIP_PLAYWRIGHT=1 or SCHEMEKIT_SKIP_FUZZ=1 to skip a stage)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

log() { printf '\n==> [%ss] %s\n' "$SECONDS" "$*"; }

# --- 1. System packages --------------------------------------------------------------------
apt_packages=(libwebkitgtk-6.0-dev xvfb xauth chromium firefox-esr poppler-utils media-types zip unzip python3
    python3-pip zlib1g-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
    gstreamer1.0-plugins-good)
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

# --- 2. Paths safe on case-insensitive file systems, then build, no warnings in our code ------
# Two paths differing only by case become one on macOS's and Windows' default file systems.
log "Scripts/check-case.sh"
bash Scripts/check-case.sh
#
# One build with every package trait on (the default `Server`/`Packages`, and the engines
# `WebKitGTK`, `Chromium` and `Firefox`), so every suite below runs from the same binaries. A plain
# `swift build` (default traits only) builds a subset of the same sources.
traits=(--enable-all-traits)
log "swift build --build-tests ${traits[*]}"
swift build --build-tests "${traits[@]}" 2>&1 | tee /tmp/schemekit-build.log | grep -E "error|warning: .*(Sources|Tests|Samples)/" || true
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
    swift test --skip-build "${traits[@]}" "$@" 2>&1 | tee "/tmp/schemekit-$name.log"
    grep -qE "Test run with [0-9]+ tests? .*passed" "/tmp/schemekit-$name.log" || exit 1
}
engines="SchemeKitWebKitGTKTests|SchemeKitChromiumTests|SchemeKitFirefoxTests|HeadlessRender"
run_suite core --skip Stress --skip SchemeServeTests --skip "Network|Preload" --skip BoundedMemoryTests --skip "$engines"
run_suite network --filter "Network|Preload"
# 1 GiB through the network fallback, a claimed preload and the callback adapter: peak RSS growth.
SCHEMEKIT_ISOLATED=1 SCHEMEKIT_MEMORY_TEST_BYTES=1073741824 run_suite memory --filter BoundedMemoryTests
run_suite serve --filter SchemeServeTests
SCHEMEKIT_ISOLATED=1 SCHEMEKIT_STRESS_TASKS=100000 run_suite stress --filter Stress

# --- 4. The real engines ---------------------------------------------------------------------
# Headless Chromium over the DevTools pipe (trait `Chromium`), one Chromium at a time.
if [ "${SCHEMEKIT_SKIP_CHROMIUM:-0}" != 1 ]; then
    run_suite chromium --no-parallel --filter SchemeKitChromiumTests --skip BoundedMemoryChromiumTests
    # A 128 MiB fulfil to a page that reads it: peak RSS growth of this process, alone in it.
    SCHEMEKIT_ISOLATED=1 run_suite chromium-memory --filter BoundedMemoryChromiumTests
fi
# Headless Firefox over WebDriver BiDi (trait `Firefox`), one Firefox at a time.
if [ "${SCHEMEKIT_SKIP_FIREFOX:-0}" != 1 ]; then
    run_suite firefox --no-parallel --filter SchemeKitFirefoxTests
fi
# WebKitGTK under a virtual X server (trait `WebKitGTK`).
if [ "${SCHEMEKIT_SKIP_WEBKIT:-0}" != 1 ]; then
    log "WebKitGTK adapter tests (xvfb-run)"
    xvfb-run -a swift test --skip-build "${traits[@]}" --filter SchemeKitWebKitGTKTests \
        --skip BoundedMemoryWebKitGTKTests 2>&1 | tee /tmp/schemekit-webkit.log
    grep -qE "Test run with [0-9]+ tests? .*passed" /tmp/schemekit-webkit.log || exit 1
    # A page's 256 MiB POST body read by a slow handler: peak RSS growth of this process, alone in it.
    SCHEMEKIT_ISOLATED=1 xvfb-run -a swift test --skip-build "${traits[@]}" --filter BoundedMemoryWebKitGTKTests 2>&1 \
        | tee /tmp/schemekit-webkit-memory.log
    grep -qE "Test run with [0-9]+ tests? .*passed" /tmp/schemekit-webkit-memory.log || exit 1
fi
# headless-render, the binary, on every engine (its PDFs, `--connect` to browsers started as separate
# processes), built the way the README tells users to build it,
# each engine from an empty build folder: a product the README's command leaves out (the WebKitGTK
# media extension) then shows up here, not only in a build that has every product.
if [ "${SCHEMEKIT_SKIP_WEBKIT:-0}" != 1 ] || [ "${SCHEMEKIT_SKIP_CHROMIUM:-0}" != 1 ] ||
    [ "${SCHEMEKIT_SKIP_FIREFOX:-0}" != 1 ]; then
    log "headless-render as the README builds it (clean build folders), then its tests (xvfb-run)"
    render_env=()
    if [ "${SCHEMEKIT_SKIP_WEBKIT:-0}" != 1 ]; then
        rm -rf .build-readme-webkit
        # README: `swift build --traits WebKitGTK`, then `xvfb-run -a swift run --traits WebKitGTK headless-render …`
        swift build --traits WebKitGTK --scratch-path .build-readme-webkit 2>&1 | tail -1
        xvfb-run -a swift run --scratch-path .build-readme-webkit --traits WebKitGTK headless-render Samples/app \
            --eval window.sampleReport 2>/dev/null | tee /tmp/schemekit-readme-webkit.log | tail -1
        grep -q '"video":true' /tmp/schemekit-readme-webkit.log || { echo "README's WebKitGTK command: no video" >&2; exit 1; }
        render_env+=(SCHEMEKIT_HEADLESS_RENDER_WEBKIT="$root/.build-readme-webkit/debug/headless-render")
    fi
    if [ "${SCHEMEKIT_SKIP_CHROMIUM:-0}" != 1 ]; then
        rm -rf .build-readme-chromium
        # README: `swift run --traits Chromium headless-render --engine chromium Samples/app --eval window.sampleReport`
        swift run --scratch-path .build-readme-chromium --traits Chromium headless-render --engine chromium \
            Samples/app --eval window.sampleReport 2>/dev/null | tee /tmp/schemekit-readme-chromium.log | tail -1
        grep -q '"video":true' /tmp/schemekit-readme-chromium.log || { echo "README's Chromium command: no video" >&2; exit 1; }
        render_env+=(SCHEMEKIT_HEADLESS_RENDER_CHROMIUM="$root/.build-readme-chromium/debug/headless-render")
    fi
    if [ "${SCHEMEKIT_SKIP_FIREFOX:-0}" != 1 ]; then
        rm -rf .build-readme-firefox
        # README: `swift run --traits Firefox headless-render --engine firefox Samples/app --eval window.sampleReport`
        swift run --scratch-path .build-readme-firefox --traits Firefox headless-render --engine firefox \
            Samples/app --eval window.sampleReport 2>/dev/null | tee /tmp/schemekit-readme-firefox.log | tail -1
        grep -q '"video":true' /tmp/schemekit-readme-firefox.log || { echo "README's Firefox command: no video" >&2; exit 1; }
        render_env+=(SCHEMEKIT_HEADLESS_RENDER_FIREFOX="$root/.build-readme-firefox/debug/headless-render")
    fi
    env "${render_env[@]}" xvfb-run -a swift test --skip-build "${traits[@]}" --no-parallel --filter HeadlessRender 2>&1 \
        | tee /tmp/schemekit-render.log
    grep -qE "Test run with [0-9]+ tests? .*passed" /tmp/schemekit-render.log || exit 1
fi

# HAR files both ways with the real Playwright for Python, pinned, on the system Chromium (no
# browser download): Playwright records, schemeserve --har and headless-render --har replay;
# SchemeKit records (--record-har), Playwright's route_from_har replays.
if [ "${SCHEMEKIT_SKIP_PLAYWRIGHT:-0}" != 1 ] && [ "${SCHEMEKIT_SKIP_CHROMIUM:-0}" != 1 ]; then
    playwright_version=1.65.2
    if [ "$(python3 -c 'import importlib.metadata as m; print(m.version("playwright"))' 2>/dev/null)" != "$playwright_version" ]; then
        log "pip install playwright==$playwright_version"
        # Debian's own python3 is "externally managed" (PEP 668): install next to it all the same.
        python3 -m pip install -q "playwright==$playwright_version" 2>/dev/null \
            || python3 -m pip install -q --break-system-packages "playwright==$playwright_version"
    fi
    log "HAR round trip with Playwright (Tests/Playwright/har_roundtrip.py)"
    python3 Tests/Playwright/har_roundtrip.py --bin "$(swift build --show-bin-path "${traits[@]}")"
    # The sample app in Playwright's Chromium through schemeserve, reload after reload: the
    # browser's own conditional requests, answered from the request cache, a file changed on disk,
    # cross-origin fetch() with --cors (preflights included), POSTs through --fallback, and --watch.
    log "schemeserve reloads with Playwright (Tests/Playwright/serve_reload.py)"
    python3 Tests/Playwright/serve_reload.py --bin "$(swift build --show-bin-path "${traits[@]}")"
fi

# --- 5. Every suite of the default build under the thread sanitizer ---------------------------
# The same process groups as stage 3 (the stress test with 100,000 tasks). Not the peak-memory test
# (TSan's shadow memory is what it would measure) and not the engines (their traits are off here:
# WebKit's and GLib's own code is not instrumented). Any ThreadSanitizer report fails the stage.
tsan_suite() {  # tsan_suite NAME swift-test-arguments...
    local name=$1; shift
    log "swift test --sanitize=thread $*"
    swift test --skip-build --scratch-path .build-tsan --sanitize=thread "$@" 2>&1 | tee "/tmp/schemekit-tsan-$name.log"
    if grep -q "ThreadSanitizer" "/tmp/schemekit-tsan-$name.log"; then
        echo "ThreadSanitizer reported a race (see above)." >&2
        exit 1
    fi
    grep -qE "Test run with [0-9]+ tests? .*passed" "/tmp/schemekit-tsan-$name.log" || exit 1
}
if [ "${SCHEMEKIT_SKIP_TSAN:-0}" != 1 ]; then
    log "swift build --build-tests --sanitize=thread"
    swift build --build-tests --scratch-path .build-tsan --sanitize=thread 2>&1 | tail -3
    tsan_suite core --skip Stress --skip SchemeServeTests --skip "Network|Preload" --skip BoundedMemoryTests
    tsan_suite network --filter "Network|Preload" --skip BoundedMemoryTests
    tsan_suite serve --filter SchemeServeTests
    SCHEMEKIT_ISOLATED=1 SCHEMEKIT_STRESS_TASKS=100000 tsan_suite stress --filter Stress
fi

# --- 6. Every README snippet compiles -----------------------------------------------------------
if [ "${SCHEMEKIT_SKIP_SNIPPETS:-0}" != 1 ]; then
    log "Scripts/check-snippets.sh"
    bash Scripts/check-snippets.sh
fi

# --- 6a. DocC for every library, warnings as errors (a broken symbol link fails) -------------------
if [ "${SCHEMEKIT_SKIP_DOCS:-0}" != 1 ]; then
    log "Scripts/docs.sh"
    # In .build, where stage 2 built every dependency with every trait: 244 s here, against 528 s
    # in an empty folder of its own (a later `swift build` there rebuilds for 2 minutes).
    SCHEMEKIT_DOCC_SCRATCH=.build bash Scripts/docs.sh
fi

# --- 6b. The Benchmarks package still builds against today's API (it is a package of its own, so
# nothing above compiles it; running it is not a test: see README, Performance) ---------------
if [ "${SCHEMEKIT_SKIP_BENCHMARKS_BUILD:-0}" != 1 ]; then
    log "swift build --package-path Benchmarks (compile only)"
    swift build --package-path Benchmarks 2>&1 | tee /tmp/schemekit-benchmarks-build.log | tail -3
    [ "${PIPESTATUS[0]}" = 0 ] || { tail -40 /tmp/schemekit-benchmarks-build.log; exit 1; }
    if grep -E "^$root/Benchmarks/(Benchmarks|Peers)/.*: warning:" /tmp/schemekit-benchmarks-build.log; then
        echo "The Benchmarks package builds with warnings in its own code (see above)." >&2
        exit 1
    fi
fi

# --- 7. Fuzz smoke: every parser of untrusted input, 30 s each, libFuzzer + ASan ---------------
if [ "${SCHEMEKIT_SKIP_FUZZ:-0}" != 1 ]; then
    log "Fuzz smoke (Scripts/fuzz.sh ${SCHEMEKIT_FUZZ_SECONDS:-30})"
    bash Scripts/fuzz.sh "${SCHEMEKIT_FUZZ_SECONDS:-30}"
fi
log "All SchemeKit suites passed."
