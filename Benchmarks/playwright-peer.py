#!/usr/bin/env python3
"""Playwright's request interception as a benchmark peer: `route.fulfill` serving a directory at a
virtual https origin, in the system Chromium (the same binary SchemeKit's adapter drives).

chromium-bench (Benchmarks/Browsers/ChromiumBench) starts this process and drives it over stdin/stdout, one JSON line each
way: it writes {"evaluate": EXPRESSION} and reads {"value": …} or {"error": "…"}. The first line
written is {"ready": true}, once the page shows the origin's blank page. EOF on stdin ends it.

usage: playwright-peer.py DIRECTORY [ORIGIN]     (ORIGIN default: https://app.localhost)
       SCHEMEKIT_CHROMIUM: the Chromium executable (default: /usr/bin/chromium)
"""
import json
import os
import sys
from urllib.parse import urlsplit, unquote

from playwright.sync_api import sync_playwright


def main() -> None:
    directory = os.path.realpath(sys.argv[1])
    origin = sys.argv[2] if len(sys.argv) > 2 else "https://app.localhost"
    executable = os.environ.get("SCHEMEKIT_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        arguments = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = playwright.chromium.launch(executable_path=executable, args=arguments)
        page = browser.new_page()

        def fulfill(route):
            # What a Playwright user writes: the file for the URL's path, or a 404.
            path = unquote(urlsplit(route.request.url).path).lstrip("/")
            file = os.path.realpath(os.path.join(directory, path))
            if file.startswith(directory + os.sep) and os.path.isfile(file):
                route.fulfill(status=200, path=file)
            else:
                route.fulfill(status=404, body="not found")

        page.route(origin + "/**", fulfill)
        page.goto(origin + "/blank.html")
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                value = page.evaluate(json.loads(line)["evaluate"])
                print(json.dumps({"value": value}), flush=True)
            except Exception as error:  # the test reads the message
                print(json.dumps({"error": str(error)}), flush=True)
        browser.close()


if __name__ == "__main__":
    main()
