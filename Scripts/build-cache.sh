#!/usr/bin/env bash
# Keeps SchemeKit's build folders between test runs, outside the clone, the way hosted CI caches
# `.build`: Scripts/test.sh calls it when SCHEMEKIT_BUILD_CACHE=DIR is set.
#
#   bash Scripts/build-cache.sh restore    copies the folders of the matching entry into the clone
#   bash Scripts/build-cache.sh save       copies the clone's folders into the entry (replacing it)
#
# An entry is keyed by the toolchain (`swift --version`), the machine, the clone's absolute path
# (SwiftPM's build folders name their sources by absolute path) and the three manifests (Package.swift,
# Fuzz/ and Benchmarks/). It also holds the Package.resolved files it was built with: after a
# restore every package is resolved again, and if any version differs from the entry's the restored
# folders are deleted, so the run starts clean. Only the newest entry is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cache=${SCHEMEKIT_BUILD_CACHE:?set SCHEMEKIT_BUILD_CACHE to the cache directory}
folders=(.build .build-tsan .build-readme .build-snippets Fuzz/.build Benchmarks/.build)
packages=(. Fuzz Benchmarks)

key=$({
    swift --version 2>&1
    uname -m
    echo "$root"
    cat Package.swift Fuzz/Package.swift Benchmarks/Package.swift
} | sha256sum | cut -c1-16)
entry="$cache/$key"

resolved_of() { [ "$1" = . ] && echo Package.resolved || echo "$1/Package.resolved"; }

case "${1:-}" in
restore)
    if [ ! -f "$entry/complete" ]; then
        echo "No build cache entry $key in $cache: the run starts clean."
        exit 0
    fi
    start=$SECONDS
    for folder in "${folders[@]}"; do
        [ -d "$entry/$folder" ] || continue
        rm -rf "$folder"
        mkdir -p "$(dirname "$folder")"
        cp -a --reflink=auto "$entry/$folder" "$folder"
    done
    for package in "${packages[@]}"; do
        resolved=$(resolved_of "$package")
        [ -f "$entry/resolved/$resolved" ] && cp "$entry/resolved/$resolved" "$resolved"
    done
    # Resolve again: a version that changed (a new manifest constraint, a new mirror) starts clean.
    for package in "${packages[@]}"; do
        swift package --package-path "$package" resolve >/dev/null 2>&1 || true
        resolved=$(resolved_of "$package")
        if ! cmp -s "$resolved" "$entry/resolved/$resolved"; then
            echo "The resolved versions of $package changed since entry $key: the run starts clean."
            for folder in "${folders[@]}"; do rm -rf "$folder"; done
            exit 0
        fi
    done
    echo "Restored build cache entry $key in $((SECONDS - start)) s."
    ;;
save)
    start=$SECONDS
    mkdir -p "$cache"
    staging="$cache/.saving-$$"
    rm -rf "$staging"
    mkdir -p "$staging/resolved/Fuzz" "$staging/resolved/Benchmarks"
    for folder in "${folders[@]}"; do
        [ -d "$folder" ] || continue
        mkdir -p "$staging/$(dirname "$folder")"
        cp -a --reflink=auto "$folder" "$staging/$folder"
    done
    for package in "${packages[@]}"; do
        resolved=$(resolved_of "$package")
        [ -f "$resolved" ] && cp "$resolved" "$staging/resolved/$resolved"
    done
    touch "$staging/complete"
    # Only the newest entry is kept: the folders are several GiB.
    for old in "$cache"/*; do
        [ -e "$old" ] && [ "$old" != "$staging" ] && rm -rf "$old"
    done
    mv "$staging" "$entry"
    echo "Saved build cache entry $key ($(du -sh "$entry" | cut -f1)) in $((SECONDS - start)) s."
    ;;
*)
    echo "usage: bash Scripts/build-cache.sh restore|save   (with SCHEMEKIT_BUILD_CACHE=DIR)" >&2
    exit 64
    ;;
esac
