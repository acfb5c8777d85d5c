#!/usr/bin/env bash
# Runs every SchemeKit fuzz target (libFuzzer + AddressSanitizer), one after the other.
#   bash Scripts/fuzz.sh [seconds-per-target] [target...]     (default: 60 s, every target)
# Builds the package in Fuzz/ (which depends on the root package) with
# `-sanitize=fuzzer,address`, then runs each target for the given time on a working copy of its
# committed seed corpus (Fuzz/Corpus/<target>). A crash, a timeout (-timeout per input), a leak
# or an allocation beyond the limits (-rss_limit_mb, -malloc_limit_mb) fails the run; libFuzzer
# saves the input as Fuzz/crashes/<target>-crash-<sha1> (reproduce: Fuzz/.build/debug/<target> FILE).
# Prints a table of executions, coverage (cov) and features (ft) per target; the table is also
# written to Fuzz/.build/fuzz-summary.md. Set SCHEMEKIT_FUZZ_JOBS to limit build jobs.
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
        exit 1
    fi
done
if grep -E "^$root/(Sources|Fuzz/Sources)/.*: (warning|error):" /tmp/schemekit-fuzz-build.log; then
    echo "The fuzz build produced warnings in SchemeKit's own code (see above)." >&2
    exit 1
fi
echo "    built in $(($(date +%s) - start)) s"
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
summary="$scratch/fuzz-summary.md"
{
    echo "| Target | Seconds | Executions | cov | ft | Result |"
    echo "|---|---:|---:|---:|---:|---|"
} >"$summary"
failed=0
for target in "${targets[@]}"; do
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
            echo "| $target | - | - | - | - | FAILED: a saved reproducer crashes again (see $log.replay) |" | tee -a "$summary"
            grep -E "ERROR|FUZZ PROPERTY|Fatal error|Running:" "$log.replay" | tail -5
            set -e
            continue
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
    echo "| $target | $seconds | ${runs:-?} | ${cov:-?} | ${ft:-?} | $result |" | tee -a "$summary"
done
echo
cat "$summary"
exit "$failed"
