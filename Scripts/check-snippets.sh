#!/usr/bin/env bash
# Compiles every ```swift block of every Markdown file in the repository (README.md, Samples/*/README.md,
# docs, DocC articles: whatever `git ls-files '*.md'` lists, plus untracked files not ignored) against
# SchemeKit's products, in a scratch package that depends on this repository BY PATH, as a user's
# package would. Fails when one does not compile; compiler errors point at the Markdown file and line.
#
# Usage: bash Scripts/check-snippets.sh [--list] [FILE.md ...]   (default: every Markdown file;
#        --list only prints how each block would be compiled and writes the scratch package)
#        SNIPPETS_SCRATCH=DIR to put the scratch package elsewhere (default: .build-snippets/, kept
#        between runs so a rerun only rebuilds what changed; git-ignored)
#
# How a block is compiled is chosen by an HTML comment on the line just before its fence (invisible
# on GitHub). Without one, the block is a complete program:
#
#   (no marker)                     The block is a whole `main.swift`: imports, declarations and
#                                   top-level code (`try`/`await` allowed), in its own executable target.
#   <!-- snippet: fragment -->      The block is a function body: its `import` lines are moved to the
#                                   top, the rest is wrapped in `func snippet() async throws { … }`.
#   <!-- snippet: fragment(url: URL, headers: HTTPFields) -->
#                                   The same, with the names the fragment uses but does not declare
#                                   given as the function's parameters.
#   <!-- snippet: manifest -->      The block is a Package.swift: a whole one, or `Package(…)`'s
#                                   arguments (`dependencies: […], targets: […]`), or only
#                                   `.package(…)` lines, or only `.product(…)` lines (wrapped into a
#                                   manifest as needed). It is loaded with `swift package
#                                   dump-package` in its own directory (which checks that every
#                                   `.product(package:)` names a declared dependency by its
#                                   identity), and every product taken from this package (identity
#                                   "schemekit") must be one of its products.
#   <!-- snippet: skip: REASON -->  Not compiled (say why: Apple platforms only, pseudo-code). Listed.
#
# A compiled block may also say `traits(A, B)` (e.g. `<!-- snippet: fragment traits(WebKitGTK) -->`):
# the scratch package then enables those package traits on its dependency on SchemeKit.
#
# A whole program may also say `run(N, ARGS)` (e.g. `<!-- snippet: traits(WebKitGTK) run(100, Samples/app) -->`):
# it is then linked and run N times with ARGS (relative paths are the repository's), with its
# standard output piped, as a user's shell script would; every run must exit 0 and print something.
# A program of the `WebKitGTK` trait runs under one `xvfb-run -a`. SCHEMEKIT_SKIP_SNIPPET_RUNS=1
# compiles such programs without running them.
#
# Each compiled block gets the products of every module it imports (`import SchemeKit`,
# `import SchemeKitTesting`, …, found in `swift package dump-package`), and nothing else, so a
# snippet that forgets an import fails here as it would for a user.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=${SNIPPETS_SCRATCH:-$root/.build-snippets}
mkdir -p "$scratch"

list_only=0
if [ "${1:-}" = --list ]; then list_only=1; shift; fi
if (($#)); then
    files=("$@")
else
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.md' | sort -u)
fi

swift package --package-path "$root" --scratch-path "$scratch/root-dump" dump-package > "$scratch/root-package.json"

python3 - "$root" "$scratch" "${files[@]}" <<'PYTHON'
import json, os, re, shutil, sys

root, scratch, files = sys.argv[1], sys.argv[2], sys.argv[3:]
manifest = json.load(open(os.path.join(scratch, "root-package.json")))
identity = os.path.basename(root).lower()  # a path dependency's identity is its folder's name
products = {p["name"] for p in manifest["products"] if "library" in p["type"]}
module_product = {}
for product in manifest["products"]:
    if "library" in product["type"]:
        for target in product["targets"]:
            module_product.setdefault(target, product["name"])

marker = re.compile(r"^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$")
import_line = re.compile(r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)")

snippets = []   # dicts: file, line (1-based line of the first code line), code lines, mode, params, traits, run
for path in files:
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        fence = re.match(r"^(\s*)(`{3,}|~{3,})\s*swift\b(.*)$", lines[index])
        if not fence:
            index += 1
            continue
        indent, ticks = fence.group(1), fence.group(2)
        previous = index - 1
        while previous >= 0 and not lines[previous].strip():
            previous -= 1
        spec = ""
        if previous >= 0 and (m := marker.match(lines[previous])):
            spec = m.group(1)
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(ticks):
            end += 1
        code = [l[len(indent):] if l.startswith(indent) else l for l in lines[index + 1:end]]
        mode, params, traits, reason = "file", "", [], ""
        if spec.startswith("skip"):
            mode, reason = "skip", spec[4:].lstrip(": ").strip() or "no reason given"
        elif spec.startswith("manifest"):
            mode = "manifest"
        elif spec.startswith("fragment"):
            mode = "fragment"
            if m := re.match(r"fragment\s*\((.*?)\)(?=\s|$)", spec):
                params = m.group(1)
        elif spec and not spec.startswith(("traits", "run")):
            sys.exit(f"{path}:{previous + 1}: unknown snippet marker '{spec}' (see Scripts/check-snippets.sh)")
        if m := re.search(r"traits\s*\(([^)]*)\)", spec):
            traits = [t.strip() for t in m.group(1).split(",") if t.strip()]
        run = None
        if m := re.search(r"run\s*\((\d+)\s*(?:,\s*([^)]*))?\)", spec):
            if mode != "file":
                sys.exit(f"{path}:{previous + 1}: run(…) needs a whole program, not a {mode}")
            run = (int(m.group(1)), (m.group(2) or "").split())
        snippets.append(dict(file=os.path.join(root, path), shown=path, line=index + 2, code=code,
                             mode=mode, params=params, traits=traits, reason=reason, run=run))
        index = end + 1

package_dir = os.path.join(scratch, "package")
sources = os.path.join(package_dir, "Sources")
shutil.rmtree(sources, ignore_errors=True)
os.makedirs(sources, exist_ok=True)
manifests_dir = os.path.join(scratch, "manifests")
shutil.rmtree(manifests_dir, ignore_errors=True)
os.makedirs(manifests_dir, exist_ok=True)

targets, all_traits, plan, runs = [], set(), [], []
for number, s in enumerate(snippets, 1):
    where = f"{s['shown']}:{s['line']}"
    slug = re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(s["shown"])[0]).strip("_")
    name = f"Snippet{number:02d}_{slug}_L{s['line']}"
    if s["mode"] == "skip":
        plan.append(("skip", where, s["reason"]))
        continue
    if s["mode"] == "manifest":
        directory = os.path.join(manifests_dir, name)
        os.makedirs(directory)
        code = "\n".join(s["code"])
        first = code.lstrip()
        header = "// swift-tools-version: 6.1\nimport PackageDescription\n"
        if "Package(" in code:       # a whole manifest; add the header lines it may leave out
            text = ("" if "swift-tools-version" in code else header) + \
                   ("" if "import PackageDescription" in code else "import PackageDescription\n") + code
        elif first.startswith(".package("):   # dependency lines
            text = header + f'let package = Package(name: "Example", dependencies: [\n{code}\n])'
        elif first.startswith(".product("):   # target dependency lines
            # A user's manifest declares SchemeKit by URL; dump-package only reads it.
            text = header + ('let package = Package(name: "Example", dependencies: [\n'
                             '.package(url: "https://github.com/OWNER/SchemeKit", from: "0.1.0")], targets: [\n'
                             f'.target(name: "Example", dependencies: [\n{code}\n])])')
        else:                                  # Package(...) arguments: dependencies:, targets:, …
            text = header + f'let package = Package(\nname: "Example",\n{code}\n)'
        open(os.path.join(directory, "Package.swift"), "w").write(text + "\n")
        plan.append(("manifest", where, directory))
        continue
    location = lambda line: f'#sourceLocation(file: "{s["file"]}", line: {line})'
    imports, body = [], []
    for offset, text in enumerate(s["code"]):
        m = import_line.match(text)
        if m:
            imports.append((s["line"] + offset, text.strip(), m.group(1)))
        body.append(text)
    if s["mode"] == "fragment":
        out = []
        for line, text, _ in imports:
            out += [location(line), text, "#sourceLocation()"]
        out.append(f"func snippet({s['params']}) async throws {{")
        out.append(location(s["line"]))
        out += ["" if import_line.match(text) else text for text in body]
        out += ["#sourceLocation()", "}"]
    else:
        out = [location(s["line"])] + body + ["#sourceLocation()"]
    os.makedirs(os.path.join(sources, name))
    open(os.path.join(sources, name, "main.swift"), "w").write("\n".join(out) + "\n")
    needed = sorted({module_product[module] for _, _, module in imports if module in module_product})
    targets.append((name, needed))
    all_traits.update(s["traits"])
    plan.append((s["mode"], where, name))
    if s["run"]:
        runs.append((where, name, s["run"][0], s["run"][1], "WebKitGTK" in s["traits"]))

trait_list = ", ".join(f'"{t}"' for t in sorted(all_traits))
dependency = f'.package(path: "{root}"' + (f", traits: [.defaults, {trait_list}]" if all_traits else "") + ")"
target_lines = []
for name, needed in targets:
    deps = ", ".join(f'.product(name: "{p}", package: "{identity}")' for p in needed)
    target_lines.append(f'        .executableTarget(name: "{name}", dependencies: [{deps}]),')
open(os.path.join(package_dir, "Package.swift"), "w").write(f"""// swift-tools-version: 6.1
// Generated by Scripts/check-snippets.sh: one target per Markdown snippet. Do not edit.
import PackageDescription

let package = Package(
    name: "SnippetCheck",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [{dependency}],
    targets: [
{chr(10).join(target_lines)}
    ],
    swiftLanguageModes: [.v6]
)
""")
json.dump({"plan": plan, "runs": runs, "products": sorted(products), "identity": identity},
          open(os.path.join(scratch, "plan.json"), "w"), indent=1)
for kind, where, what in plan:
    print(f"  {kind:<9} {where}" + (f"  (skipped: {what})" if kind == "skip" else ""))
print(f"{len(targets)} snippet(s) to compile, "
      f"{sum(1 for p in plan if p[0] == 'manifest')} manifest(s), {sum(1 for p in plan if p[0] == 'skip')} skipped")
PYTHON

if ((list_only)); then exit 0; fi
status=0
# Manifests: each must load, and name only real products of this package.
while IFS=$'\t' read -r where directory; do
    if ! swift package --package-path "$directory" dump-package > "$directory/dump.json" 2> "$directory/errors.txt"; then
        echo "$where: error: the manifest does not load:" >&2
        sed 's/^/    /' "$directory/errors.txt" >&2
        status=1
        continue
    fi
    python3 - "$where" "$directory/dump.json" "$scratch/plan.json" <<'PYTHON' || status=1
import json, sys
where, dump, plan = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
ours = {"schemekit", plan["identity"]}
bad = []
for target in dump.get("targets", []):
    for dependency in target.get("dependencies", []):
        product = dependency.get("product")
        if product and (product[1] or "").lower() in ours and product[0] not in plan["products"]:
            bad.append(f"{target['name']} depends on '{product[0]}', not a product of SchemeKit ({', '.join(plan['products'])})")
for line in bad:
    print(f"{where}: error: {line}", file=sys.stderr)
sys.exit(1 if bad else 0)
PYTHON
done < <(python3 -c 'import json,sys; [print(w + "\t" + d) for k, w, d in json.load(open(sys.argv[1]))["plan"] if k == "manifest"]' "$scratch/plan.json")

# Programs and fragments: one `swift build --target` per snippet, so that one snippet's errors do
# not hide another's (the first one also builds the SchemeKit products they need; later ones reuse them).
failed=()
while IFS=$'\t' read -r where target; do
    if swift build --package-path "$scratch/package" --target "$target" > "$scratch/$target.log" 2>&1; then
        echo "  ok        $where"
    else
        echo "  FAILED    $where" >&2
        grep -E "(error|warning): " "$scratch/$target.log" | grep -v "^ *|" | sort -u | sed 's/^/    /' >&2
        failed+=("$where")
        status=1
    fi
done < <(python3 -c 'import json,sys; [print(w + "\t" + t) for k, w, t in json.load(open(sys.argv[1]))["plan"] if k in ("file", "fragment")]' "$scratch/plan.json")
if ((${#failed[@]})); then
    echo "${#failed[@]} snippet(s) do not compile: ${failed[*]} (errors above point at the Markdown lines)." >&2
fi
if ((status == 0)); then echo "Every snippet compiles."; fi

# Programs marked run(N, ARGS): linked, then run N times with standard output piped; each run must
# exit 0 and print something (a program that aborts in its exit handlers loses its buffered output).
if [ "${SCHEMEKIT_SKIP_SNIPPET_RUNS:-0}" != 1 ]; then
    while IFS=$'\t' read -r where target count xvfb args; do
        if ! swift build --package-path "$scratch/package" --product "$target" > "$scratch/$target.link.log" 2>&1; then
            echo "  FAILED    $where: does not link" >&2
            grep -E "error: " "$scratch/$target.link.log" | sort -u | sed 's/^/    /' >&2
            status=1
            continue
        fi
        binary="$(swift build --package-path "$scratch/package" --show-bin-path)/$target"
        runner=()
        if [ "$xvfb" = 1 ]; then runner=(xvfb-run -a); fi
        # One X server for every run; the loop reports how many runs failed and how.
        if "${runner[@]}" bash -c '
            binary=$1 count=$2 log=$3; shift 3
            failures=0
            for i in $(seq 1 "$count"); do
                "$binary" "$@" > "$log.out" 2> "$log.err"; code=$?
                if [ "$code" != 0 ] || [ ! -s "$log.out" ]; then
                    failures=$((failures + 1))
                    echo "    run $i: exit $code, $(wc -c < "$log.out") bytes on stdout; stderr (without the loaded images):" >&2
                    # A Swift crash prints why and where first, then a list of loaded images: keep the first.
                    grep -v -E "ALSA|AL lib|a11y bus|D-Bus|dbus-launch|^$|^ *0x[0-9a-f]+.0x[0-9a-f]+ " "$log.err" \
                        | head -40 | sed "s/^/      /" >&2
                    cp "$log.err" "$log.err.$i"
                fi
            done
            echo "    $((count - failures)) of $count runs exited 0 with output"
            [ "$failures" = 0 ]' _ "$binary" "$count" "$scratch/$target.run" $args; then
            echo "  ran       $where ($count times)"
        else
            echo "  FAILED    $where: not every run exited cleanly (see above)" >&2
            status=1
        fi
    done < <(python3 -c '
import json, os, sys
plan = json.load(open(sys.argv[1]))
for where, name, count, args, xvfb in plan["runs"]:
    args = [a if os.path.isabs(a) else os.path.join(sys.argv[2], a) for a in args]
    print("\t".join([where, name, str(count), "1" if xvfb else "0", " ".join(args)]))' "$scratch/plan.json" "$root")
fi
exit $status
