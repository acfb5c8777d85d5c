#!/usr/bin/env bash
# Runs every SchemeKit fuzz target (libFuzzer + AddressSanitizer), one after the other.
#   bash Scripts/fuzz.sh [seconds-per-target] [target...]     (default: 60 s, every target)
# Builds the package in Fuzz/ (which depends on the root package) with
# `-sanitize=fuzzer,address`, then runs each target for the given time on a working copy of its
# committed seed corpus (Fuzz/Corpus/<target>). A crash, a timeout (-timeout per input), a leak
# or an allocation beyond the limits (-rss_limit_mb, -malloc_limit_mb) fails the run; libFuzzer
# saves the input as Fuzz/crashes/<target>-crash-<sha1> (reproduce: Fuzz/.build/debug/<target> FILE).
# Prints a table of executions, coverage (cov) and features (ft) per target; the table is also
# written to Fuzz/.build/fuzz-summary.md. Set SCHEMEKIT_FUZZ_JOBS to limit build jobs,
# SCHEMEKIT_FUZZ_BUILD_ONLY=1 to build without running, SCHEMEKIT_FUZZ_SKIP_BUILD=1 to run what an
# earlier build made, and SCHEMEKIT_FUZZ_PARALLEL=N to run N targets at a time (one per core).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
shift || true
all=(FuzzURL FuzzRequestParts FuzzRange FuzzConditional FuzzMediaType FuzzSniffer FuzzSafePath FuzzZip FuzzCDP FuzzBiDi FuzzHAR)
targets=("$@")
((${#targets[@]})) || targets=("${all[@]}")

scratch="$root/Fuzz/.build"
build_flags=(--package-path Fuzz --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address)
[ -n "${SCHEMEKIT_FUZZ_JOBS:-}" ] && build_flags+=(-j "$SCHEMEKIT_FUZZ_JOBS")

build() {
    echo "==> swift build (Fuzz/, -sanitize=fuzzer,address)"
    start=$(date +%s)
    : >/tmp/schemekit-fuzz-build.log
    # SwiftPM re-plans a path dependency only when the manifest changes: without this, a source file
    # added to or deleted from the root package since the last fuzz build fails it ("missing inputs").
    touch Fuzz/Package.swift
    for target in "${targets[@]}"; do
        # One product at a time: a plain `swift build` would also build every product of the root
        # package's dependencies (NIO, swift-crypto…), which no fuzz target needs.
        if ! swift build "${build_flags[@]}" --product "$target" >>/tmp/schemekit-fuzz-build.log 2>&1; then
            tail -40 /tmp/schemekit-fuzz-build.log
            return 1
        fi
    done
    if grep -E "^$root/(Sources|Fuzz/Sources)/.*: (warning|error):" /tmp/schemekit-fuzz-build.log; then
        echo "The fuzz build produced warnings in SchemeKit's own code (see above)." >&2
        return 1
    fi
    echo "    built in $(($(date +%s) - start)) s"
}
[ "${SCHEMEKIT_FUZZ_SKIP_BUILD:-0}" = 1 ] || build || exit 1
[ "${SCHEMEKIT_FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0
bin=$(swift build "${build_flags[@]}" --show-bin-path)

# Per-target options: the longest input worth mutating, and a malloc limit in MiB.
options() {
    case $1 in
    FuzzURL | FuzzRequestParts | FuzzSafePath) echo "-max_len=4096 -malloc_limit_mb=256" ;;
    FuzzRange | FuzzConditional | FuzzMediaType) echo "-max_len=1024 -malloc_limit_mb=256" ;;
    FuzzSniffer) echo "-max_len=4096 -malloc_limit_mb=256" ;;
    FuzzZip) echo "-max_len=65536 -malloc_limit_mb=512" ;;
    FuzzCDP) echo "-max_len=8192 -malloc_limit_mb=256" ;;
    FuzzBiDi) echo "-max_len=8192 -malloc_limit_mb=256" ;;
    FuzzHAR) echo "-max_len=65536 -malloc_limit_mb=512" ;;
    *) echo "unknown target $1" >&2; exit 2 ;;
    esac
}

mkdir -p Fuzz/crashes
rm -f "$scratch"/*.row
summary="$scratch/fuzz-summary.md"
{
    echo "| Target | Seconds | Executions | cov | ft | Result |"
    echo "|---|---:|---:|---:|---:|---|"
} >"$summary"
# run_target TARGET: replays the target's reproducers, fuzzes it; its row goes to $scratch/$TARGET.row.
run_target() {
    local target=$1 failed=0
    work="$scratch/corpus/$target"
    mkdir -p "$work" "Fuzz/Corpus/$target"
    log="$scratch/$target.log"
    echo "==> $target for $seconds s"
    set +e
    # Every saved reproducer of this target first: each is a regression that must stay fixed.
    reproducers=(Fuzz/crashes/"$target"-*)
    if [ -e "${reproducers[0]}" ]; then
        if ! SWIFT_BACKTRACE=enable=no "$bin/$target" $(options "$target") "${reproducers[@]}" >"$log.replay" 2>&1; then
            failed=1
            echo "| $target | - | - | - | - | FAILED: a saved reproducer crashes again (see $log.replay) |" | tee "$scratch/$target.row"
            grep -E "ERROR|FUZZ PROPERTY|Fatal error|Running:" "$log.replay" | tail -5
            set -e
            return 1
        fi
        echo "    ${#reproducers[@]} saved reproducer(s) pass"
    fi
    # shellcheck disable=SC2046
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" "$bin/$target" "$work" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 $(options "$target") \
        -print_final_stats=1 -artifact_prefix="Fuzz/crashes/$target-" >"$log" 2>&1
    status=$?
    set -e
    runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
    cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+")
    ft=$(grep -oE "ft: [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+")
    result="0 crashes, 0 timeouts, 0 leaks"
    if ((status != 0)); then
        failed=1
        result="FAILED (exit $status): $(grep -m1 -E "ERROR: libFuzzer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|FUZZ PROPERTY|Fatal error|fuzz target exited" "$log" | cut -c1-120)"
        grep -E "ERROR|FUZZ PROPERTY|Fatal error|Test unit written|artifact" "$log" | head -20
    fi
    echo "| $target | $seconds | ${runs:-?} | ${cov:-?} | ${ft:-?} | $result |" | tee "$scratch/$target.row"
    return "$failed"
}
parallel=${SCHEMEKIT_FUZZ_PARALLEL:-1}
failed=0
running=0
for target in "${targets[@]}"; do
    if ((parallel > 1)); then
        run_target "$target" &
        running=$((running + 1))
        if ((running >= parallel)); then
            wait -n || failed=1
            running=$((running - 1))
        fi
    else
        run_target "$target" || failed=1
    fi
done
while ((running > 0)); do
    wait -n || failed=1
    running=$((running - 1))
done
for target in "${targets[@]}"; do cat "$scratch/$target.row" >>"$summary"; done
echo
cat "$summary"
exit "$failed"
