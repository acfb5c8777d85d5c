#!/usr/bin/env bash
# Fails when two paths of the repository differ only by letter case.
#
# macOS's and Windows' default file systems ignore case: a clone there checks such paths out as
# one (`Sources/SchemeServe` and `Sources/schemeserve` became one folder, two targets sharing one
# set of sources, which SwiftPM refuses). Every tracked file is checked, and every directory
# above one, since two directories that collide merge their files. Names are compared as those
# file systems do: case-folded, and in one Unicode normalization form (APFS also ignores that).
#
# Usage: bash Scripts/check-case.sh     (from anywhere inside the repository)
# Prints each colliding group, one path a line, and exits 1; prints nothing and exits 0 otherwise.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

git ls-files -z | python3 -c '
import sys
import unicodedata
from collections import defaultdict

paths = set()
for path in sys.stdin.buffer.read().decode("utf-8", "surrogateescape").split("\0"):
    if not path:
        continue
    parts = path.split("/")
    for end in range(1, len(parts) + 1):  # the file and every directory above it
        paths.add("/".join(parts[:end]))

groups = defaultdict(set)
for path in paths:
    groups[unicodedata.normalize("NFD", path).casefold()].add(path)
collisions = sorted(sorted(group) for group in groups.values() if len(group) > 1)
for group in collisions:
    print("paths differing only by case:", file=sys.stderr)
    for path in group:
        print("  " + path, file=sys.stderr)
sys.exit(1 if collisions else 0)
'
