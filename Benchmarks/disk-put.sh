#!/usr/bin/env bash
# Disk-tier `put` throughput, 8 concurrent writers, for one or more git revisions side by side.
# Compiles the disk tier's own sources of each revision with a small driver (Benchmarks/DiskPut/
# main.swift) with `swiftc -O`: no package build, so it runs in seconds.
#   Benchmarks/disk-put.sh [REV ...]      (default: HEAD; the working tree with WORKTREE)
#   WRITERS=8 PUTS=200 SIZE=16384 KEYS=100 RUNS=3
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
revs=("$@"); [ ${#revs[@]} -eq 0 ] && revs=(WORKTREE)
files=(Cache/CacheExpiration Cache/CacheTimeSource Cache/DiskEntryHeader Cache/DiskFileIO Cache/DiskIndexFile
       Cache/DiskStorage Cache/DiskStorage+Backend Cache/DiskStorageError Cache/FNV1a Cache/LRUIndex
       Support/Lock Support/AtomicFile)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for rev in "${revs[@]}"; do
    dir="$work/$rev"; mkdir -p "$dir"
    for f in "${files[@]}"; do
        p="Sources/SchemeKit/$f.swift"; out="$dir/$(basename "$f").swift"
        if [ "$rev" = WORKTREE ]; then [ -f "$root/$p" ] && cp "$root/$p" "$out" || true
        else git -C "$root" show "$rev:$p" > "$out" 2>/dev/null || rm -f "$out"; fi
    done
    cp "$root/Benchmarks/DiskPut/main.swift" "$dir/main.swift"
    swiftc -O -swift-version 6 -enable-upcoming-feature InternalImportsByDefault -module-name DiskPut -package-name DiskPut "$dir"/*.swift -o "$dir/disk-put" 2>&1 | grep -v warning || true
    for _ in $(seq "${RUNS:-3}"); do
        printf '%-10s ' "$rev"; "$dir/disk-put" "${WRITERS:-8}" "${PUTS:-200}" "${SIZE:-16384}" "${KEYS:-100}"
    done
done
