#!/usr/bin/env bash
# Runs every SchemeKit test suite on a fresh Debian 12 machine with Swift 6.3.
#
#   bash Scripts/test.sh                     every suite (what CI runs: .ci/run calls this)
#   bash Scripts/test.sh --quick [ENGINE]    the developer loop: lint, one build, the core, server
#                                            and one engine's suites (chromium by default; webkit,
#                                            firefox); about 10 minutes from an empty build folder,
#                                            2 to 4 with a warm one
#
# The full run:
#   1. installs what the tests need with apt-get (only when missing), checks paths for case clashes
#      and runs `swift format lint --strict`;
#   2. builds the package with every trait on (`.build`) and fails on any warning in our own code;
#   3. then two lanes run side by side, one busy building while the other mostly waits on browsers:
#      - tests: every Swift Testing suite from that build (core, network, memory bounds, server,
#        stress), the real engines (headless Chromium, headless Firefox, WebKitGTK under xvfb-run),
#        headless-render on every engine as the README builds it, the HAR round trip and
#        schemeserve's reloads with the real Playwright for Python, DocC for every library with
#        warnings as errors, every suite of the default build under the thread sanitizer, and a fuzz
#        smoke (every libFuzzer target for 30 s under AddressSanitizer, two at a time);
#      - builds: the thread-sanitizer build, the README's headless-render commands in a clean build
#        folder, every ```swift snippet of every Markdown file (Scripts/check-snippets.sh), the
#        Benchmarks package and the fuzz targets;
#   4. prints each stage's seconds.
#
# Build products can be kept between runs outside the clone, as hosted CI caches `.build`: set
# SCHEMEKIT_BUILD_CACHE=DIR (see Scripts/build-cache.sh). The cache is keyed by the toolchain, the
# manifests, the resolved versions and the clone's path, so any change of those starts clean.
#
# Skip a stage with SCHEMEKIT_SKIP_TSAN=1, SCHEMEKIT_SKIP_WEBKIT=1, SCHEMEKIT_SKIP_CHROMIUM=1,
# SCHEMEKIT_SKIP_FIREFOX=1, SCHEMEKIT_SKIP_SNIPPETS=1, SCHEMEKIT_SKIP_DOCS=1,
# SCHEMEKIT_SKIP_BENCHMARKS_BUILD=1, SCHEMEKIT_SKIP_PLAYWRIGHT=1 or SCHEMEKIT_SKIP_FUZZ=1.
# Logs of every stage: $SCHEMEKIT_LOG_DIR (default /tmp/schemekit-test-logs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

quick=0
quick_engine=chromium
if [ "${1:-}" = --quick ]; then
    quick=1
    case "${2:-chromium}" in
    chromium | firefox | webkit) quick_engine=${2:-chromium} ;;
    *) echo "usage: bash Scripts/test.sh [--quick [chromium|firefox|webkit]]" >&2; exit 64 ;;
    esac
elif [ $# -gt 0 ]; then
    echo "usage: bash Scripts/test.sh [--quick [chromium|firefox|webkit]]" >&2
    exit 64
fi

logs=${SCHEMEKIT_LOG_DIR:-/tmp/schemekit-test-logs}
rm -rf "$logs"
mkdir -p "$logs"
times="$logs/stage-times"
: >"$times"
skip() { [ "${!1:-0}" = 1 ]; }
# with_env NAME=VALUE... COMMAND...: runs a command or a shell function with those variables set.
with_env() {
    local assignments=()
    while [[ ${1:-} == *=* ]]; do
        assignments+=("$1")
        shift
    done
    (
        export "${assignments[@]}"
        "$@"
    )
}

log() { printf '\n==> [%ss] %s\n' "$SECONDS" "$*"; }

# stage NAME COMMAND...: runs one stage, records its seconds (and whether it failed).
stage() {
    local name=$1 start=$SECONDS status=0
    shift
    log "$name"
    "$@" || status=$?
    printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$([ $status = 0 ] && echo ok || echo FAILED)" >>"$times"
    return $status
}

print_times() {
    local status=$?
    # The builds lane, when it runs in the background, is stopped with the run.
    if [ -n "${builds_pid:-}" ]; then
        kill -- "-$builds_pid" 2>/dev/null || true
        wait "$builds_pid" 2>/dev/null || true
    fi
    printf '\n==> Stage times (seconds; the lanes ran side by side)\n'
    sort -t$'\t' -k2,2nr "$times" | awk -F'\t' '{ printf "  %6d  %-44s %s\n", $2, $1, ($3 == "ok" ? "" : $3) }'
    printf '  %6d  total\n' "$SECONDS"
    if [ $status != 0 ]; then echo "Failed (logs in $logs)." >&2; fi
}
trap print_times EXIT

# --- 1. System packages, then the quick checks ---------------------------------------------------
apt_packages=(libwebkitgtk-6.0-dev xvfb xauth chromium firefox-esr poppler-utils media-types zip unzip python3
    python3-pip zlib1g-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
    gstreamer1.0-plugins-good nginx)
install_packages() {
    local missing=() p
    for p in "${apt_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    echo "Installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
stage "apt-get install (when missing)" install_packages

# Two paths differing only by case become one on macOS's and Windows' default file systems.
stage "Scripts/check-case.sh" bash Scripts/check-case.sh
stage "swift format lint --strict" swift format lint --strict -r Sources Tests Samples Benchmarks Fuzz Package.swift

# Restore the build folders kept from an earlier run (SCHEMEKIT_BUILD_CACHE), when their key matches.
if [ -n "${SCHEMEKIT_BUILD_CACHE:-}" ]; then
    stage "build cache: restore" bash Scripts/build-cache.sh restore
fi

# --- 2. One build with every trait on, no warnings in our code ------------------------------------
# Every package trait on (the default `Server`/`Packages`, and the engines `WebKitGTK`, `Chromium`
# and `Firefox`), so every suite below runs from the same binaries. A plain `swift build` (default
# traits only) builds a subset of the same sources.
traits=(--enable-all-traits)
build_all() {
    swift build --build-tests "${traits[@]}" 2>&1 | tee "$logs/build.log" |
        grep -E "error|warning: .*(Sources|Tests|Samples)/" || true
    if grep -E "^$root/(Sources|Tests)/.*: (warning|error):" "$logs/build.log"; then
        echo "Build produced warnings or errors in SchemeKit's own code (see above)." >&2
        return 1
    fi
    grep -q "Build complete" "$logs/build.log" || { tail -40 "$logs/build.log"; return 1; }
}
stage "swift build --build-tests --enable-all-traits" build_all

# run_suite NAME swift-test-arguments...: one `swift test` process from the build above.
run_suite() {
    local name=$1
    shift
    swift test --skip-build "${traits[@]}" "$@" >"$logs/$name.log" 2>&1 || true
    grep -E "^(✘|􀢄)|Test run with|error:" "$logs/$name.log" | tail -40
    grep -qE "Test run with [0-9]+ tests? .*passed" "$logs/$name.log"
}
# xvfb_suite NAME swift-test-arguments...: the same under a virtual X server (WebKitGTK).
xvfb_suite() {
    local name=$1
    shift
    xvfb-run -a swift test --skip-build "${traits[@]}" "$@" >"$logs/$name.log" 2>&1 || true
    grep -E "^(✘|􀢄)|Test run with|error:" "$logs/$name.log" | tail -40
    grep -qE "Test run with [0-9]+ tests? .*passed" "$logs/$name.log"
}

engines="SchemeKitWebKitGTKTests|SchemeKitChromiumTests|SchemeKitFirefoxTests|HeadlessRender|EngineConformanceTests"
# Suites run in separate processes: the stress test saturates the cooperative thread pool for
# seconds, and the server tests block threads on raw sockets; either would starve the
# loopback-origin tests (network, preload) if they shared a process, and so would the crash tests
# that wait on child processes.
core_suites() {
    stage "tests: core" run_suite core --skip Stress --skip SchemeServeTests --skip "Network|Preload" \
        --skip BoundedMemoryTests --skip "$engines"
    stage "tests: network" run_suite network --filter "Network|Preload" --skip BoundedMemoryTests
    stage "tests: schemeserve" run_suite serve --filter SchemeServeTests
}
engine_suite() {  # engine_suite chromium|firefox|webkit
    case $1 in
    chromium)
        skip SCHEMEKIT_SKIP_CHROMIUM && return 0
        # Headless Chromium over the DevTools pipe (trait `Chromium`), one Chromium at a time.
        stage "tests: Chromium" run_suite chromium --no-parallel --filter SchemeKitChromiumTests \
            --skip BoundedMemoryChromiumTests
        ;;
    firefox)
        skip SCHEMEKIT_SKIP_FIREFOX && return 0
        # Headless Firefox over WebDriver BiDi (trait `Firefox`), one Firefox at a time.
        stage "tests: Firefox" run_suite firefox --no-parallel --filter SchemeKitFirefoxTests
        ;;
    webkit)
        skip SCHEMEKIT_SKIP_WEBKIT && return 0
        # WebKitGTK under a virtual X server (trait `WebKitGTK`).
        stage "tests: WebKitGTK" xvfb_suite webkit --filter SchemeKitWebKitGTKTests --skip BoundedMemoryWebKitGTKTests
        ;;
    esac
}

if ((quick)); then
    core_suites
    engine_suite "$quick_engine"
    log "Quick loop passed (core, schemeserve, $quick_engine). The full run: bash Scripts/test.sh"
    exit 0
fi

# --- 3. Two lanes side by side --------------------------------------------------------------------
# The builds lane writes a marker when each product is ready; the tests lane waits for the marker
# of what it needs next (or for the lane's failure, which fails the run).
markers="$logs/markers"
mkdir -p "$markers"
ready() { touch "$markers/$1"; }
wait_for() {  # wait_for MARKER: a script step, not a test — it polls the builds lane's files
    while [ ! -e "$markers/$1" ]; do
        if [ -e "$markers/builds-failed" ]; then
            echo "The builds lane failed (see above and $logs/lane-builds.log)." >&2
            return 1
        fi
        sleep 2
    done
}

# README (Chromium): `swift run --traits Chromium headless-render --engine chromium Samples/app …`, and
# the same for WebKitGTK (after `swift build --traits WebKitGTK`, which builds the media extension)
# and Firefox. The three run in one build folder, emptied first: a product the README's command
# leaves out (the WebKitGTK media extension) shows up here, not only in a build that has every
# product; what they share (the dependencies) is built once.
readme_commands() {
    local bin
    rm -rf .build-readme
    if ! skip SCHEMEKIT_SKIP_WEBKIT; then
        swift build --traits WebKitGTK --scratch-path .build-readme 2>&1 | tail -1
        xvfb-run -a swift run --scratch-path .build-readme --traits WebKitGTK headless-render Samples/app \
            --eval window.sampleReport 2>/dev/null | tee "$logs/readme-webkit.log" | tail -1
        grep -q '"video":true' "$logs/readme-webkit.log" || { echo "README's WebKitGTK command: no video" >&2; return 1; }
        mkdir -p .build-readme/bin
        cp .build-readme/debug/headless-render .build-readme/bin/headless-render-webkit
        cp .build-readme/debug/libSchemeKitWebKitGTKMedia.so .build-readme/bin/
    fi
    for engine in Chromium Firefox; do
        local lower
        lower=$(echo "$engine" | tr '[:upper:]' '[:lower:]')
        skip "SCHEMEKIT_SKIP_$(echo "$engine" | tr '[:lower:]' '[:upper:]')" && continue
        swift run --scratch-path .build-readme --traits "$engine" headless-render --engine "$lower" \
            Samples/app --eval window.sampleReport 2>/dev/null | tee "$logs/readme-$lower.log" | tail -1
        grep -q '"video":true' "$logs/readme-$lower.log" || { echo "README's $engine command: no video" >&2; return 1; }
        mkdir -p .build-readme/bin
        cp .build-readme/debug/headless-render ".build-readme/bin/headless-render-$lower"
    done
}

build_tsan() {
    swift build --build-tests --scratch-path .build-tsan --sanitize=thread >"$logs/build-tsan.log" 2>&1 ||
        { tail -40 "$logs/build-tsan.log"; return 1; }
}
build_benchmarks() {
    swift build --package-path Benchmarks >"$logs/build-benchmarks.log" 2>&1 ||
        { tail -40 "$logs/build-benchmarks.log"; return 1; }
    if grep -E "^$root/Benchmarks/(Benchmarks|Peers)/.*: warning:" "$logs/build-benchmarks.log"; then
        echo "The Benchmarks package builds with warnings in its own code (see above)." >&2
        return 1
    fi
}

builds_lane() {
    # Products are built in the order the tests lane needs them.
    if ! skip SCHEMEKIT_SKIP_WEBKIT || ! skip SCHEMEKIT_SKIP_CHROMIUM || ! skip SCHEMEKIT_SKIP_FIREFOX; then
        stage "build: README headless-render commands (clean folder)" readme_commands || return 1
    fi
    ready readme
    if ! skip SCHEMEKIT_SKIP_TSAN; then
        stage "build: thread sanitizer" build_tsan || return 1
    fi
    ready tsan
    if ! skip SCHEMEKIT_SKIP_FUZZ; then
        stage "build: fuzz targets" env SCHEMEKIT_FUZZ_BUILD_ONLY=1 bash Scripts/fuzz.sh || return 1
    fi
    ready fuzz
    # Every ```swift block of every Markdown file, in a package that depends on this one by path.
    if ! skip SCHEMEKIT_SKIP_SNIPPETS; then
        stage "build: README and DocC snippets" bash Scripts/check-snippets.sh || return 1
    fi
    # The Benchmarks package still builds against today's API (it is a package of its own, so
    # nothing else compiles it; running it is not a test).
    if ! skip SCHEMEKIT_SKIP_BENCHMARKS_BUILD; then
        stage "build: Benchmarks package" build_benchmarks || return 1
    fi
    ready builds-done
}
# Its own process group (job control on for the launch only), so a failed run stops all of it.
set -m
(builds_lane || { touch "$markers/builds-failed"; exit 1; }) > >(sed -u 's/^/[builds] /') 2>&1 &
builds_pid=$!
set +m

# The tests lane.
core_suites
# 1 GiB through the network fallback, a claimed preload and the callback adapter, and a video's
# ranges through the WKWebView adapter against WebKit's stand-in (WKWebViewBoundedMemoryTests, picked
# up by the same filter; the core stage runs its other suites): peak RSS growth.
stage "tests: bounded memory (1 GiB)" with_env SCHEMEKIT_ISOLATED=1 SCHEMEKIT_MEMORY_TEST_BYTES=1073741824 \
    run_suite memory --filter BoundedMemoryTests
stage "tests: stress (100,000 tasks)" with_env SCHEMEKIT_ISOLATED=1 SCHEMEKIT_STRESS_TASKS=100000 \
    run_suite stress --filter Stress

engine_suite chromium
if ! skip SCHEMEKIT_SKIP_CHROMIUM; then
    # A 128 MiB fulfil to a page that reads it: peak RSS growth of this process, alone in it.
    stage "tests: Chromium bounded memory" with_env SCHEMEKIT_ISOLATED=1 run_suite chromium-memory \
        --filter BoundedMemoryChromiumTests
fi
engine_suite firefox
engine_suite webkit
if ! skip SCHEMEKIT_SKIP_WEBKIT; then
    # A page's 256 MiB POST body read by a slow handler: peak RSS growth of this process, alone in it.
    stage "tests: WebKitGTK bounded memory" with_env SCHEMEKIT_ISOLATED=1 xvfb_suite webkit-memory \
        --filter BoundedMemoryWebKitGTKTests
fi

# The same page on every engine, once through SchemeKit and once from nginx, check by check
# (streaming, ranges, the local backend, cookies, workers); the loopback origin's guarantees; then
# 1 GiB through each browser with this process's peak RSS, each engine alone in its process.
if ! (skip SCHEMEKIT_SKIP_WEBKIT && skip SCHEMEKIT_SKIP_CHROMIUM && skip SCHEMEKIT_SKIP_FIREFOX); then
    stage "tests: engine conformance (against nginx)" xvfb_suite conformance --no-parallel \
        --filter EngineConformanceTests --skip BoundedMemoryBrowserTests
    stage "tests: engines bounded memory (1 GiB)" with_env SCHEMEKIT_ISOLATED=1 xvfb_suite conformance-memory \
        --filter BoundedMemoryBrowserTests
fi

# HAR files both ways with the real Playwright for Python, pinned, on the system Chromium (no
# browser download): Playwright records, schemeserve --har and headless-render --har replay;
# SchemeKit records (--record-har), Playwright's route_from_har replays. Then the sample app in
# Playwright's Chromium through schemeserve, reload after reload.
playwright() {
    local version=1.65.2 bin
    if [ "$(python3 -c 'import importlib.metadata as m; print(m.version("playwright"))' 2>/dev/null)" != "$version" ]; then
        # Debian's own python3 is "externally managed" (PEP 668): install next to it all the same.
        python3 -m pip install -q "playwright==$version" 2>/dev/null ||
            python3 -m pip install -q --break-system-packages "playwright==$version"
    fi
    bin=$(swift build --show-bin-path "${traits[@]}")
    PYTHONDONTWRITEBYTECODE=1 python3 Tests/Playwright/har_roundtrip.py --bin "$bin"
    PYTHONDONTWRITEBYTECODE=1 python3 Tests/Playwright/serve_reload.py --bin "$bin"
}
if ! skip SCHEMEKIT_SKIP_PLAYWRIGHT && ! skip SCHEMEKIT_SKIP_CHROMIUM; then
    stage "tests: Playwright (HAR round trip, schemeserve reloads)" playwright
fi

# headless-render, the binaries the README's commands built, on every engine: its PDFs, `--connect`
# to browsers started as separate processes, its reports.
if ! skip SCHEMEKIT_SKIP_WEBKIT || ! skip SCHEMEKIT_SKIP_CHROMIUM || ! skip SCHEMEKIT_SKIP_FIREFOX; then
    wait_for readme
    render_env=()
    for engine in webkit chromium firefox; do
        upper=$(echo "$engine" | tr '[:lower:]' '[:upper:]')
        [ -x ".build-readme/bin/headless-render-$engine" ] &&
            render_env+=("SCHEMEKIT_HEADLESS_RENDER_$upper=$root/.build-readme/bin/headless-render-$engine")
    done
    stage "tests: headless-render (README builds)" with_env "${render_env[@]}" xvfb_suite render --no-parallel \
        --filter HeadlessRender
fi

# DocC for every library, warnings as errors (a broken symbol link fails), in .build, where every
# dependency is built by now with every trait.
if ! skip SCHEMEKIT_SKIP_DOCS; then
    stage "DocC (warnings as errors)" env SCHEMEKIT_DOCC_SCRATCH=.build bash Scripts/docs.sh "$logs/docc"
fi

# Every suite of the default build under the thread sanitizer: the same process groups as above (the
# stress test with 100,000 tasks). Not the peak-memory test (TSan's shadow memory is what it would
# measure) and not the engines (their traits are off here: WebKit's and GLib's own code is not
# instrumented). Any ThreadSanitizer report fails the stage.
tsan_suite() {  # tsan_suite NAME swift-test-arguments...
    local name=$1
    shift
    swift test --skip-build --scratch-path .build-tsan --sanitize=thread "$@" >"$logs/tsan-$name.log" 2>&1 || true
    grep -E "^(✘|􀢄)|Test run with|ThreadSanitizer" "$logs/tsan-$name.log" | tail -20
    if grep -q "ThreadSanitizer" "$logs/tsan-$name.log"; then
        echo "ThreadSanitizer reported a race (see $logs/tsan-$name.log)." >&2
        return 1
    fi
    grep -qE "Test run with [0-9]+ tests? .*passed" "$logs/tsan-$name.log"
}
if ! skip SCHEMEKIT_SKIP_TSAN; then
    wait_for tsan
    stage "TSan: core" tsan_suite core --skip Stress --skip SchemeServeTests --skip "Network|Preload" \
        --skip BoundedMemoryTests
    stage "TSan: network" tsan_suite network --filter "Network|Preload" --skip BoundedMemoryTests
    stage "TSan: schemeserve" tsan_suite serve --filter SchemeServeTests
    stage "TSan: stress" with_env SCHEMEKIT_ISOLATED=1 SCHEMEKIT_STRESS_TASKS=100000 tsan_suite stress --filter Stress
fi

# Fuzz smoke: every parser of untrusted input for 30 s under libFuzzer + ASan, two at a time (one per core).
if ! skip SCHEMEKIT_SKIP_FUZZ; then
    wait_for fuzz
    stage "fuzz smoke (30 s per target)" env SCHEMEKIT_FUZZ_SKIP_BUILD=1 SCHEMEKIT_FUZZ_PARALLEL=2 \
        bash Scripts/fuzz.sh "${SCHEMEKIT_FUZZ_SECONDS:-30}"
fi

wait_for builds-done
wait "$builds_pid"
builds_pid=""
if [ -n "${SCHEMEKIT_BUILD_CACHE:-}" ]; then
    stage "build cache: save" bash Scripts/build-cache.sh save
fi
log "All SchemeKit suites passed."
