#!/usr/bin/env python3
"""HAR files both ways between SchemeKit and the real Playwright for Python (1.65.2).

    python3 Tests/Playwright/har_roundtrip.py --bin "$(swift build --show-bin-path --enable-all-traits)"

Run by Scripts/test.sh against the built `schemeserve` and `headless-render` (the latter with the
Chromium trait). Playwright drives the system Chromium (`/usr/bin/chromium`, no browser download).

The page (written by this script into a temporary directory) has a script, a stylesheet, an image,
JSON and a 200 KiB binary; once loaded it fetches each of them again and reports, per resource, its
status and the SHA-256 of its body (`window.report`), plus whether the script ran, the stylesheet
applied and the image decoded.

a. Playwright records the page, served over http by a loopback server, into a HAR with embedded
   bodies and into its default `.har.zip` (bodies attached), from /start, which the server redirects
   to /index.html absolutely; the server is stopped; SchemeKit replays each file: `schemeserve --har`
   (every body fetched over HTTP, and the page in Playwright's Chromium through it, from /start: the
   recorded redirect keeps the page on schemeserve) and `headless-render --engine chromium --har`. Every body matches the
   original by SHA-256.
b. SchemeKit records the page through `--fallback`: `headless-render --engine chromium --record-har`
   (URLs https://app.localhost/…) and `schemeserve --record-har` while Playwright browses it (URLs
   http://127.0.0.1:<port>/…, from /start, which the origin redirects to itself absolutely: the
   page stays on schemeserve, live and replayed); the origin and schemeserve are stopped; Playwright's
   `context.route_from_har(…, not_found="abort")` replays each recording: the page loads with every
   resource, each with status 200 and the original SHA-256, and no request fails (none can reach a
   network: nothing listens any more).

Prints one line per check; exits 1 when any fails.
"""

import argparse
import functools
import hashlib
import http.server
import importlib.metadata
import json
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import urllib.request
import zlib

from playwright.sync_api import sync_playwright

from schemeserve_process import SchemeServe

CHROMIUM = "/usr/bin/chromium"
RESOURCES = ["index.html", "app.js", "style.css", "logo.png", "data.json?v=1", "blob.bin"]
STYLE = "rgb(1, 2, 3)"

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>HAR round trip</title>
<link rel="stylesheet" href="style.css">
<script src="app.js"></script>
</head><body>
<img id="logo" src="logo.png" alt="logo">
<script>
window.report = new Promise((resolve) => window.addEventListener('load', resolve)).then(async () => {
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
  const resources = {};
  for (const path of %s) {
    const response = await fetch(path, { cache: 'no-store' });
    const body = await response.arrayBuffer();
    resources[path] = { status: response.status, sha256: hex(await crypto.subtle.digest('SHA-256', body)) };
  }
  const image = document.getElementById('logo');
  return {
    resources,
    script: window.appLoaded === true,
    style: getComputedStyle(document.body).backgroundColor,
    image: image.complete ? image.naturalWidth : 0,
  };
});
</script>
</body></html>
""" % json.dumps(RESOURCES)


def png(width, height):
    """A valid RGB PNG of the given size."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"".join(bytes((x * 30 % 256, y * 30 % 256, 200)) for x in range(width))
                   for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def make_site(directory):
    """Writes the page and its resources; returns {resource: sha256 of its body}."""
    rng = random.Random(20260425)
    files = {
        "index.html": PAGE.encode(),
        "app.js": b"window.appLoaded = true;\n",
        "style.css": ("body { background-color: %s; }\n" % STYLE).encode(),
        "logo.png": png(8, 8),
        "data.json": json.dumps({"name": "SchemeKit", "items": ["caf\u00e9", 42, None]}).encode(),
        "blob.bin": bytes(rng.getrandbits(8) for _ in range(200 * 1024)),
    }
    os.makedirs(directory, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    return {path: hashlib.sha256(files[path.split("?")[0]]).hexdigest() for path in RESOURCES}


class Origin:
    """A loopback http server for the site, without caching, so every load is a plain 200."""

    def __init__(self, directory):
        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/start":
                    # What a web framework sends: an absolute redirect built from the Host it got.
                    self.send_response(302)
                    self.send_header("Location", "http://%s/index.html" % self.headers["Host"])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                del self.headers["If-Modified-Since"]
                super().do_GET()

            def end_headers(self):
                self.send_header("Cache-Control", "no-store")
                super().end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=directory))
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def listening(port):
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def headless_render(binary, arguments):
    """`headless-render --engine chromium <arguments> --json --eval window.report`: the page's report."""
    run = subprocess.run(
        [binary, "--engine", "chromium", *arguments, "--json", "--eval", "window.report"],
        capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        raise RuntimeError("headless-render exited %d: %s" % (run.returncode, run.stderr.strip()))
    return json.loads(json.loads(run.stdout.strip().splitlines()[-1])["eval"])


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, name, ok, detail=""):
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)[:600]), flush=True)
        if not ok:
            self.failures.append(name)

    def report(self, name, report, expected):
        """Every resource with status 200 and its original SHA-256; script, style and image applied."""
        resources = report.get("resources", {})
        for path in RESOURCES:
            got = resources.get(path, {})
            self.expect("%s: %s 200, sha256" % (name, path),
                        got.get("status") == 200 and got.get("sha256") == expected[path], got)
        self.expect("%s: the script ran, the stylesheet applied, the image decoded" % name,
                    report.get("script") is True and report.get("style") == STYLE and report.get("image") == 8,
                    {k: report.get(k) for k in ("script", "style", "image")})


def browse(browser, url, har=None):
    """Loads `url` in a fresh context (replaying `har` with route_from_har, not_found="abort"):
    the page's report and the requests that failed."""
    context = browser.new_context()
    if har:
        context.route_from_har(har, not_found="abort")
    page = context.new_page()
    failed = []
    page.on("requestfailed", lambda request: failed.append("%s %s" % (request.url, request.failure)))
    response = page.goto(url)
    report = page.evaluate("window.report")
    landed = page.url
    context.close()
    browse.landed = landed
    return response.status if response else None, report, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the directory of the built schemeserve and headless-render")
    options = parser.parse_args()
    schemeserve = os.path.join(options.bin, "schemeserve")
    render = os.path.join(options.bin, "headless-render")
    print("Playwright %s, %s" % (importlib.metadata.version("playwright"), CHROMIUM), flush=True)
    checks = Checks()
    work = tempfile.mkdtemp(prefix="schemekit-playwright-")
    try:
        site = os.path.join(work, "site")
        empty = os.path.join(work, "empty")
        os.makedirs(empty)
        expected = make_site(site)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)

            # a. Playwright records; SchemeKit replays.
            origin = Origin(site)
            recordings = {"embed": os.path.join(work, "embed.har"), "zip": os.path.join(work, "attach.har.zip")}
            for kind, path in recordings.items():
                extra = {"record_har_content": "embed"} if kind == "embed" else {}
                context = browser.new_context(record_har_path=path, **extra)
                page = context.new_page()
                page.goto("http://127.0.0.1:%d/start" % origin.port)  # redirected to /index.html
                checks.report("a. Playwright records (%s), live" % kind, page.evaluate("window.report"), expected)
                context.close()
            origin.stop()
            checks.expect("a. the origin is stopped", not listening(origin.port))
            for kind, path in recordings.items():
                server = SchemeServe(schemeserve, empty, ["--har", path])
                try:
                    for resource in RESOURCES:
                        with urllib.request.urlopen(server.url + resource, timeout=30) as answer:
                            status, body = answer.status, answer.read()
                        checks.expect("a. schemeserve --har %s: %s over HTTP, sha256" % (kind, resource),
                                      status == 200 and hashlib.sha256(body).hexdigest() == expected[resource],
                                      (status, len(body)))
                    status, report, failed = browse(browser, server.url + "start")
                    checks.report("a. schemeserve --har %s, in Chromium" % kind, report, expected)
                    checks.expect("a. schemeserve --har %s: the recorded redirect keeps the page on schemeserve" % kind,
                                  browse.landed == server.url + "index.html", browse.landed)
                    checks.expect("a. schemeserve --har %s: nothing failed" % kind, status == 200 and not failed,
                                  (status, failed))
                finally:
                    server.stop()
                checks.report("a. headless-render --har %s" % kind,
                              headless_render(render, [empty, "--har", path]), expected)

            # b. SchemeKit records; Playwright replays with route_from_har.
            origin = Origin(site)
            fallback = "http://127.0.0.1:%d" % origin.port
            rendered_har = os.path.join(work, "headless-render.har")
            checks.report("b. headless-render --record-har, live",
                          headless_render(render, [empty, "--fallback", fallback, "--record-har", rendered_har]),
                          expected)
            served_har = os.path.join(work, "schemeserve.har")
            server = SchemeServe(schemeserve, empty, ["--fallback", fallback, "--record-har", served_har])
            try:
                status, report, failed = browse(browser, server.url + "start")
                checks.report("b. schemeserve --record-har, live in Chromium", report, expected)
                checks.expect("b. the origin's redirect to itself (/start) keeps the page on schemeserve",
                              browse.landed == server.url + "index.html", browse.landed)
            finally:
                checks.expect("b. schemeserve stops cleanly", server.stop() == 0)
            origin.stop()
            checks.expect("b. the origin and schemeserve are stopped",
                          not listening(origin.port) and not listening(server.port))
            for name, har, url in [
                ("headless-render", rendered_har, "https://app.localhost/index.html"),
                ("schemeserve", served_har, server.url + "start"),
            ]:
                with open(har) as f:
                    urls = [entry["request"]["url"] for entry in json.load(f)["log"]["entries"]]
                base = url.rsplit("/", 1)[0] + "/"
                checks.expect("b. %s recorded the page's URLs (%s…)" % (name, base),
                              all(u.startswith(base) for u in urls) and base + "blob.bin" in urls, urls)
                status, report, failed = browse(browser, url, har=har)
                checks.report("b. route_from_har(%s.har)" % name, report, expected)
                checks.expect("b. route_from_har(%s.har): the page is at %sindex.html" % (name, base),
                              browse.landed == base + "index.html", browse.landed)
                # Playwright replays a recorded redirect of a navigation by aborting that request
                # and navigating to its Location (route._redirectNavigationRequest): /start's abort
                # is Playwright's own.
                failed = [f for f in failed if f != "%s net::ERR_ABORTED" % url or not url.endswith("/start")]
                checks.expect("b. route_from_har(%s.har): the page 200, no request failed" % name,
                              status == 200 and not failed, (status, failed))
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if checks.failures:
        print("%d check(s) failed" % len(checks.failures))
        return 1
    print("HAR round trip with Playwright: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
