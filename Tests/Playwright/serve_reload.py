#!/usr/bin/env python3
"""schemeserve as a browser uses it, reload after reload, with the real Playwright for Python (1.65.2).

    python3 Tests/Playwright/serve_reload.py --bin "$(swift build --show-bin-path --enable-all-traits)"

Run by Scripts/test.sh against the built `schemeserve`, on the system Chromium (no browser
download). A browser's requests carry `Accept-Encoding`, `Accept`, `Sec-Fetch-*` and, on a reload,
`If-None-Match`/`If-Modified-Since` for everything it kept (schemeserve sends `Cache-Control:
no-cache`): exactly the requests schemeserve answers from its event loop's request cache once it
has seen them. So:

1. The sample app (a copy in a temporary directory) loads, then reloads three times: every
   self-check passes each time (stylesheet, module, images, web font, JSON, the video's metadata,
   a 404); the reloads are answered with 304s, and no request fails.
2. Every file the page loaded, fetched again by the page (gzip where the browser offers it), has
   the bytes on disk.
3. A file changed on disk, with the same size and a new modification time, is what the next reload
   and the next fetch see: the cached answer is not served again.
4. With `--cors ORIGIN`, a page at that origin reads files with fetch(), preflighted requests
   included; a page at another origin cannot.
5. A directory asked for without its slash is redirected to it, so its index page's relative
   links are the directory's own.
6. With `--fallback ORIGIN`, the page's fetch() POSTs (JSON, a form's body) reach the origin with
   their bodies.
7. With `--watch`, the page the browser gets (gzipped, as it asks) has the live-reload script, and
   saving a stylesheet reloads the page, which still passes every self-check; so does restarting
   schemeserve on the same port (files may have changed while it was down).

Prints one line per check; exits 1 when any fails.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright

from schemeserve_process import SchemeServe

CHROMIUM = "/usr/bin/chromium"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "Samples", "app")
CHECKS = ["css", "module", "image", "font", "json", "video", "missing404"]

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def passed(report):
    return all(report.get(name) is True or (isinstance(report.get(name), dict) and report[name].get("ok"))
               for name in CHECKS)


def directory_without_slash(page, site, server):
    """A link to a directory without its slash (`/docs`) lands on `/docs/`, so its index page's
    relative script is the directory's own."""
    os.makedirs(os.path.join(site, "docs"))
    with open(os.path.join(site, "docs", "index.html"), "w") as handle:
        handle.write("<!doctype html><title>docs</title><script src=\"app.js\"></script>")
    with open(os.path.join(site, "docs", "app.js"), "w") as handle:
        handle.write("window.docsScript = location.pathname;")
    page.goto(server.url + "docs?tab=1", wait_until="load")
    check(page.url == server.url + "docs/?tab=1", "/docs?tab=1 lands on /docs/?tab=1 (%s)" % page.url)
    check(page.evaluate("window.docsScript") == "/docs/",
          "the directory's index page runs its own relative script (%s)" % page.evaluate("window.docsScript"))


def posts_through_fallback(browser, binary, site):
    """5. `--fallback ORIGIN`: the page's fetch() POSTs (JSON, and a form's body) reach the origin
    with their bodies, through the browser's real requests."""
    origin_script = os.path.join(ROOT, "Tests", "Fixtures", "origin.py")
    origin = subprocess.Popen([sys.executable, origin_script, "--max-lifetime", "120"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(origin.stdout.readline().strip())
        server = SchemeServe(os.path.join(binary, "schemeserve"), site, ["--fallback", "http://127.0.0.1:%d" % port])
        try:
            page = browser.new_context().new_page()
            page.goto(server.url, wait_until="load")
            echoed = page.evaluate("""async () => {
                const json = await (await fetch('api/items?echo=1', { method: 'POST',
                    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'café', n: 1 }) })).json();
                const form = new URLSearchParams({ q: 'a b', lang: 'fr' });
                const posted = await (await fetch('api/form?echo=1', { method: 'POST', body: form })).json();
                return [json.method, json.body, posted.method, posted.body];
            }""")
            check(echoed == ["POST", '{"name":"café","n":1}', "POST", "q=a+b&lang=fr"],
                  "--fallback: the page's POSTs reach the origin with their bodies (%s)" % echoed)
        finally:
            check(server.stop() == 0, "schemeserve --fallback exits 0 on SIGTERM")
    finally:
        origin.stdin.close()
        origin.wait(timeout=20)


def cross_origin(browser, binary, site, page_server):
    """4. `--cors ORIGIN`: a page at that origin reads the server's files with fetch(), including
    requests the browser sends a CORS preflight for (a header that is not CORS-safelisted); a page at
    any other origin cannot."""
    origin = page_server.url.rstrip("/")
    api = SchemeServe(os.path.join(binary, "schemeserve"), site, ["--cors", origin])
    try:
        page = browser.new_context().new_page()
        page.goto(page_server.url, wait_until="load")
        script = """async ([url, headers]) => {
            try {
                const response = await fetch(url, { headers });
                return { status: response.status, text: await response.text(), etag: response.headers.get('etag') };
            } catch (error) { return { error: String(error) }; }
        }"""
        with open(os.path.join(site, "data", "app.json"), "rb") as handle:
            expected = handle.read().decode()
        simple = page.evaluate(script, [api.url + "data/app.json", {}])
        check(simple.get("text") == expected, "--cors: a page at the origin reads a file cross-origin (%s)" % simple.get("error"))
        preflighted = page.evaluate(script, [api.url + "data/app.json", {"X-Requested-With": "schemekit", "Range": "bytes=0-3"}])
        check(preflighted.get("status") == 206 and preflighted.get("text") == expected[:4]
              and (preflighted.get("etag") or "").startswith('"'),
              "--cors: a request the browser preflights (a custom header, a Range) is answered, its ETag "
              "readable (%s)" % preflighted)
        other = SchemeServe(os.path.join(binary, "schemeserve"), site, [])
        try:
            stranger = browser.new_context().new_page()
            stranger.goto(other.url, wait_until="load")
            refused = stranger.evaluate(script, [api.url + "data/app.json", {"X-Requested-With": "schemekit"}])
            check("error" in refused, "--cors: a page at another origin cannot read it (%s)" % refused)
        finally:
            other.stop()
    finally:
        check(api.stop() == 0, "schemeserve --cors exits 0 on SIGTERM")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the folder with the built schemeserve")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="schemekit-reload-")
    site = os.path.join(work, "app")
    shutil.copytree(SAMPLE, site)
    server = SchemeServe(os.path.join(args.bin, "schemeserve"), site, [])
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_context().new_page()
            statuses = []
            failed = []
            page.on("response", lambda response: statuses.append((response.status, response.url)))
            page.on("requestfailed", lambda request: failed.append((request.url, request.failure)))

            page.goto(server.url, wait_until="load")
            first = page.evaluate("window.sampleReport")
            check(passed(first), "the first load passes every self-check: %s" % first)

            reloads_304 = 0
            for number in range(1, 4):
                statuses.clear()
                page.reload(wait_until="load")
                report = page.evaluate("window.sampleReport")
                check(passed(report), "reload %d passes every self-check: %s" % (number, report))
                unexpected = [(s, u) for s, u in statuses
                              if s not in (200, 206, 304) and not u.endswith("does-not-exist.json")]
                check(not unexpected, "reload %d: every answer is 200, 206 or 304 (%s)" % (number, unexpected))
                reloads_304 += sum(1 for s, _ in statuses if s == 304)
            check(reloads_304 > 0, "the reloads were revalidated with 304s (%d)" % reloads_304)
            # A reload cancels what the page still had in flight (net::ERR_ABORTED): that is the
            # browser's doing. Anything else (a reset connection, a truncated or malformed answer) is not.
            broken = [(url, why) for url, why in failed if why != "net::ERR_ABORTED"]
            check(not broken, "no request failed but those a reload cancelled (%s)" % broken)

            files = ["index.html", "css/style.css", "js/main.mjs", "js/util.mjs", "data/app.json",
                     "img/logo.png", "img/mandelbrot.jpg", "fonts/dejavu-sans-subset.woff2"]
            for name in files:
                digest = page.evaluate(
                    """async (name) => {
                        const body = await (await fetch(name)).arrayBuffer();
                        const hash = await crypto.subtle.digest('SHA-256', body);
                        return Array.from(new Uint8Array(hash)).map((b) => b.toString(16).padStart(2, '0')).join('');
                    }""", name)
                with open(os.path.join(site, name), "rb") as handle:
                    expected = hashlib.sha256(handle.read()).hexdigest()
                check(digest == expected, "fetch('%s') twice over has the bytes on disk" % name)

            # Same size, new bytes, a new modification time.
            path = os.path.join(site, "data", "app.json")
            with open(path, "rb") as handle:
                old = handle.read()
            new = old.replace(b"ranges", b"Ranges")
            check(len(new) == len(old) and new != old, "the changed file keeps its size")
            with open(path, "wb") as handle:
                handle.write(new)
            stat = os.stat(path)
            os.utime(path, (stat.st_atime + 5, stat.st_mtime + 5))
            page.reload(wait_until="load")
            check(passed(page.evaluate("window.sampleReport")), "the reload after the change passes")
            # The sample's own request for it (`cache: 'no-store'`), made on every load before the
            # change, byte for byte the same now; and a revalidation of what the browser kept.
            for mode in ["no-store", "default"]:
                text = page.evaluate(
                    "async (mode) => await (await fetch('data/app.json', { cache: mode })).text()", mode)
                check(text.encode() == new, "fetch(cache: '%s') sees the changed file, not the cached answer" % mode)
            directory_without_slash(page, site, server)
            cross_origin(browser, args.bin, site, server)
            posts_through_fallback(browser, args.bin, site)
            watched = SchemeServe(os.path.join(args.bin, "schemeserve"), site, ["--watch"])
            try:
                live = browser.new_context().new_page()
                encodings = []
                live.on("response", lambda response: encodings.append(
                    response.headers.get("content-encoding")) if response.url == watched.url else None)
                live.goto(watched.url, wait_until="load")
                check(encodings == ["gzip"], "--watch: the page comes gzipped, as the browser asks (%s)" % encodings)
                check(live.evaluate("document.documentElement.outerHTML.includes('/__schemeserve/livereload')"),
                      "--watch: the page has the live-reload script")
                live.evaluate("window.beforeSave = true")
                live.wait_for_timeout(500)  # the WebSocket connects
                with live.expect_navigation(wait_until="load", timeout=15000):
                    with open(os.path.join(site, "css", "style.css"), "a") as handle:
                        handle.write("\n/* saved */\n")
                check(live.evaluate("window.beforeSave") is None, "--watch: saving a stylesheet reloads the page")
                check(passed(live.evaluate("window.sampleReport")), "--watch: the reloaded page passes every self-check")
                # A restart (new flags, a rebuilt schemeserve) on the same port: the page reconnects
                # and reloads, since files may have changed while no one watched them.
                live.evaluate("window.beforeRestart = true")
                check(watched.stop() == 0, "schemeserve --watch exits 0 on SIGTERM")
                with open(os.path.join(site, "css", "style.css"), "a") as handle:
                    handle.write("\n/* saved while stopped */\n")
                with live.expect_navigation(wait_until="load", timeout=15000):
                    watched = SchemeServe(os.path.join(args.bin, "schemeserve"), site, ["--watch"], port=watched.port)
                check(live.evaluate("window.beforeRestart") is None, "--watch: a restarted server reloads the page")
                check(passed(live.evaluate("window.sampleReport")), "--watch: the page after the restart passes every self-check")
                restarted = live.evaluate("async () => (await (await fetch('css/style.css')).text()).includes('saved while stopped')")
                check(restarted, "--watch: the page after the restart has what was saved while the server was down")
            finally:
                check(watched.stop() == 0, "schemeserve --watch exits 0 on SIGTERM")
            browser.close()
    finally:
        status = server.stop()
        shutil.rmtree(work, ignore_errors=True)
    check(status == 0, "schemeserve exits 0 on SIGTERM (%s)" % status)
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("every check passed")


if __name__ == "__main__":
    main()
