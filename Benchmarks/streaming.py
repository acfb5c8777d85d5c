#!/usr/bin/env python3
"""Streaming into a page, side by side in one run: SchemeKit (headless-render, release build),
nginx on loopback, and Playwright's route.fulfill (Chromium only), in the same browser.

Measured by the page itself (Benchmarks/streaming-page.html, performance.now):
  sse_first_ms   from `new EventSource('/dyn/sse')` to its first event (the app's backend,
                 Tests/Fixtures/conformance_api.py, sends three events 300 ms apart; SchemeKit
                 reaches it through --fallback, nginx through an unbuffered proxy_pass, Playwright
                 through route.fetch + route.fulfill)
  big_ms         a 96 MiB file read to its end with a stream reader
  fetch_1k_ms    one 1 KiB fetch (the mean of 200 in a row)
and, for headless-render only, its own peak resident size (VmHWM, sampled until it exits).

Rounds are interleaved in a random peer order per round; medians are reported, with each peer's
ratio to nginx. Driven by Benchmarks/streaming.sh, which builds the release binary.

usage: streaming.py HEADLESS_RENDER ENGINE ROUNDS
"""
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)  # polls the server's readiness
    raise RuntimeError(f"nothing listens on {port}")


def peak_rss_of(process):
    """Samples /proc/<pid>/status's VmHWM (monotonic) until the process exits: its peak, in MiB."""
    peak = 0
    while process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.05)  # paces the sampling
    return peak / 1024


def headless_render(binary, engine, site, api, url=None):
    arguments = [binary, "--engine", engine, site, "--path", "/streaming-page.html", "--json",
                 "--eval", "window.bench()", "--fallback", f"http://127.0.0.1:{api}", "--timeout", "120"]
    if url:
        arguments += ["--url", url]
    if engine == "webkit":
        arguments.append("--no-media")  # the page has no media; the extension is not needed
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak = {}
    sampler = threading.Thread(target=lambda: peak.setdefault("mib", peak_rss_of(process)))
    sampler.start()
    output, _ = process.communicate(timeout=300)
    sampler.join()
    report = json.loads(output.strip().splitlines()[-1])
    if "eval" not in report:
        raise RuntimeError(f"headless-render failed: {report}")
    result = json.loads(report["eval"])
    result["rss_mib"] = peak.get("mib", 0)
    return result


PLAYWRIGHT = r'''
import json, os, sys, urllib.parse
from playwright.sync_api import sync_playwright
site, api = sys.argv[1], sys.argv[2]
with sync_playwright() as p:
    arguments = ["--no-sandbox"] if os.geteuid() == 0 else []
    browser = p.chromium.launch(executable_path=os.environ.get("SCHEMEKIT_CHROMIUM", "/usr/bin/chromium"), args=arguments)
    page = browser.new_page()
    def fulfill(route):
        path = urllib.parse.unquote(urllib.parse.urlsplit(route.request.url).path)
        if path.startswith("/dyn/"):
            response = route.fetch(url=f"http://127.0.0.1:{api}{path}")
            route.fulfill(response=response)
            return
        file = os.path.realpath(os.path.join(site, path.lstrip("/")))
        if os.path.isfile(file):
            route.fulfill(status=200, path=file)
        else:
            route.fulfill(status=404, body="not found")
    page.route("https://app.localhost/**", fulfill)
    page.goto("https://app.localhost/streaming-page.html")
    result = {}
    # One at a time, the large body last: a body route.fulfill cannot carry ends the page.
    for key, function in (("sse_first_ms", "benchSSE"), ("fetch_1k_ms", "bench1k"), ("big_ms", "benchBig")):
        try:
            result[key] = page.evaluate(f"window.{function}()")
        except Exception as error:
            result[key + "_error"] = str(error).splitlines()[0]
    print(json.dumps(result), flush=True)
    browser.close()
'''


def playwright(site, api):
    output = subprocess.run([sys.executable, "-c", PLAYWRIGHT, site, api], capture_output=True, text=True,
                            timeout=600)
    lines = output.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"playwright failed: {output.stderr[-2000:]}")
    return json.loads(lines[-1])


def main():
    binary, engine, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    work = tempfile.mkdtemp()
    os.chmod(work, 0o755)
    site = os.path.join(work, "site")
    os.mkdir(site)
    shutil.copy(os.path.join(HERE, "streaming-page.html"), site)
    with open(os.path.join(site, "1k"), "wb") as f:
        f.write(os.urandom(1024))
    with open(os.path.join(site, "big.bin"), "wb") as f:
        for _ in range(96):
            f.write(os.urandom(1 << 20))
    for name in os.listdir(site):
        os.chmod(os.path.join(site, name), 0o644)
    os.chmod(site, 0o755)
    api = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Fixtures/conformance_api.py")],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    api_port = int(api.stdout.readline())
    nginx_port = free_port()
    os.makedirs(os.path.join(work, "nginx"))
    with open(os.path.join(work, "nginx", "nginx.conf"), "w") as conf:
        conf.write(f"""daemon off; worker_processes 2; pid {work}/nginx/nginx.pid; error_log {work}/nginx/error.log;
events {{ worker_connections 1024; }}
http {{ include /etc/nginx/mime.types; access_log off; sendfile on; keepalive_requests 100000;
  client_body_temp_path {work}/nginx/body; proxy_temp_path {work}/nginx/proxy;
  fastcgi_temp_path {work}/nginx/fastcgi; uwsgi_temp_path {work}/nginx/uwsgi; scgi_temp_path {work}/nginx/scgi;
  server {{ listen 127.0.0.1:{nginx_port}; root {site};
    location /dyn/ {{ proxy_pass http://127.0.0.1:{api_port}; proxy_http_version 1.1; proxy_buffering off;
      proxy_set_header Connection ""; }} }} }}
""")
    nginx = subprocess.Popen(["nginx", "-c", f"{work}/nginx/nginx.conf", "-p", f"{work}/nginx"])
    wait_for_port(nginx_port)
    peers = {
        "SchemeKit": lambda: headless_render(binary, engine, site, api_port),
        "nginx": lambda: headless_render(binary, engine, site, api_port,
                                         url=f"http://127.0.0.1:{nginx_port}/streaming-page.html"),
    }
    if engine == "chromium":
        try:
            import playwright as _  # noqa: F401
            peers["Playwright route.fulfill"] = lambda: playwright(site, str(api_port))
        except ImportError:
            print("Playwright for Python not found: no Playwright column", file=sys.stderr)
    results = {name: [] for name in peers}
    try:
        for name in peers:  # a warm-up round, not recorded
            peers[name]()
        for _ in range(rounds):
            order = list(peers)
            random.shuffle(order)
            for name in order:
                results[name].append(peers[name]())
    finally:
        nginx.terminate()
        api.stdin.close()
        api.terminate()
        nginx.wait()
        shutil.rmtree(work, ignore_errors=True)

    def median(name, key):
        values = [r[key] for r in results[name] if key in r]
        return statistics.median(values) if values else float("nan")

    def failures(name, key):
        return sorted({r[key + "_error"] for r in results[name] if key + "_error" in r})

    base = {key: median("nginx", key) for key in ("sse_first_ms", "big_ms", "fetch_1k_ms")}
    print(f"\n{engine}, {rounds} rounds (medians; ratio to nginx in parentheses)")
    print(f"| Peer | SSE first event, ms | 96 MiB, ms | 1 KiB fetch, ms | headless-render peak RSS, MiB |")
    print("|---|---:|---:|---:|---:|")
    for name in peers:
        cells = []
        for key in ("sse_first_ms", "big_ms", "fetch_1k_ms"):
            value = median(name, key)
            if value != value:
                cells.append("failed: " + "; ".join(failures(name, key))[:80])
            else:
                cells.append(f"{value:.1f} ({value / base[key]:.2f}×)")
        rss = median(name, "rss_mib") if name != "Playwright route.fulfill" else float("nan")
        cells.append("—" if rss != rss else f"{rss:.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(json.dumps({"engine": engine, "results": results}), file=sys.stderr)


if __name__ == "__main__":
    main()
