#!/usr/bin/env bash
# Builds the DocC documentation of every SchemeKit library with warnings as errors, so a broken
# symbol link or a malformed article fails. Every trait is on (the engine adapters' sources are
# trait-gated), in a build folder of its own (.build-docc; SCHEMEKIT_DOCC_SCRATCH=DIR for another:
# Scripts/test.sh passes its own .build, whose dependencies are built by then). swift-docc-plugin is
# added to the manifest only when SCHEMEKIT_DOCC is set, so a package depending on SchemeKit never
# resolves it.
#
# Usage: bash Scripts/docs.sh [OUTPUT_DIR]     (default: .build-docc/site; one <library>.doccarchive per library)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build-docc/site}
libraries=(SchemeKit SchemeKitTesting SchemeKitPackages SchemeServe SchemeKitAsyncHTTPClient
    SchemeKitWebKitGTK SchemeKitChromium SchemeKitFirefox)
mkdir -p "$out"
target_flags=()
for library in "${libraries[@]}"; do target_flags+=(--target "$library"); done
# One invocation for every library: the package is planned once and the archives are converted side
# by side (each into "$out/<library>.doccarchive").
echo "DocC: ${libraries[*]}"
SCHEMEKIT_DOCC=1 swift package --enable-all-traits --scratch-path "${SCHEMEKIT_DOCC_SCRATCH:-.build-docc}" \
    generate-documentation "${target_flags[@]}" --warnings-as-errors \
    --output-path "$out" >/tmp/schemekit-docc.log 2>&1 || {
    grep -E -A3 "^(error|warning):|: (error|warning):" /tmp/schemekit-docc.log | head -60 >&2
    echo "DocC failed (full log: /tmp/schemekit-docc.log)" >&2
    exit 1
}
echo "Documentation in $out/"
