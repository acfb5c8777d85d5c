#!/usr/bin/env python3
"""A test origin for SchemeKit's network tests: a real HTTP/1.1 server on 127.0.0.1.

Started by the Swift tests (Tests/SchemeKitTests/Network/OriginServer.swift). Binds 127.0.0.1 on a
free port and prints the port as the first line of stdout. Exits when stdin closes (the test
process ended) or after --max-lifetime seconds, so it never outlives the tests.

Every path is served; behaviour comes from the query string:
  delay=MS          wait before sending the response head
  status=N          status code (default 200)
  size=N            body of N bytes (deterministic pattern), sent with Content-Length; above
                    1 MiB it is written in 1 MiB blocks as it goes (size=1073741824 costs no memory)
  ranges=1          with size: Accept-Ranges: bytes and ETag "size-N"; a `Range: bytes=A-` or
                    `bytes=A-B` request whose If-Range matches (or that has none) gets 206 (counted
                    as "ranged"); without ranges=1 a Range header is ignored (200)
  chunks=N          chunked body: N chunks ...
  chunk=N           ... of N bytes each (default 1024) ...
  interval=MS       ... with MS between chunks (default 0)
  type=T            Content-Type (default application/octet-stream; text/plain for echo)
  header=Name:Value extra response header (repeatable)
  echo=1            body is a JSON object of the request: method, path, headers
  cut=1             with size: send the head and half the body, then close the connection
  body=TEXT         body is TEXT (UTF-8)
  wait=ID           hold the response head until gate ID is released
  gate=ID:N         chunked body: after the first N chunks, hold the rest until gate ID is released
                    (repeatable, e.g. gate=a:1&gate=b:2)

Gates let a test observe a response in a known state instead of relying on the origin being slow
enough: "the head and first chunk were sent, the rest has not" holds for as long as the test
wants. While held, the origin watches the connection: when the client closes it, the response
ends at once and counts as aborted. A gate not released within --max-hold seconds (default 30)
ends its response the same way, so nothing waits forever. Gate ids are global: use unique ones.

GET /__stats?path=P    JSON counters of path P: requests, completed, aborted (the client closed
                       the connection while the response was held or being written), held
                       (responses waiting at a gate right now), hosts (Host headers seen).
GET /__release?id=ID   opens gate ID (for responses already waiting and any that arrive later).
"""

import argparse
import json
import os
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
STATS = {}
GATES = {}
MAX_HOLD = 30.0


def stats_for(path):
    return STATS.setdefault(path, {"requests": 0, "completed": 0, "aborted": 0, "held": 0, "ranged": 0, "hosts": []})


def gate(identifier):
    with LOCK:
        return GATES.setdefault(identifier, threading.Event())


def client_closed(sock):
    """Whether the peer closed the connection (end of stream or reset), without consuming data."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (ConnectionResetError, ConnectionAbortedError, BrokenPipeError, OSError):
        return True


_PERIOD = bytes((i * 7 + 13) % 251 for i in range(251))
# The pattern repeats every 251 bytes: a tile of it, sliced, serves any offset without computing.
_TILE = memoryview(_PERIOD * 8192)
_BLOCK = 1 << 20


def pattern(offset, count):
    """Deterministic bytes: byte i of the body is (i * 7 + 13) % 251."""
    if count <= _BLOCK:
        start = offset % 251
        return bytes(_TILE[start:start + count])
    return b"".join(pattern(offset + done, min(_BLOCK, count - done)) for done in range(0, count, _BLOCK))


def write_pattern(wfile, count, offset=0):
    """Writes `pattern(offset, count)` in 1 MiB blocks, never holding the whole body (size=1GiB works)."""
    for done in range(0, count, _BLOCK):
        start = (offset + done) % 251
        wfile.write(_TILE[start:start + min(_BLOCK, count - done)])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_HEAD(self):
        self.handle_any(send_body=False)

    def do_GET(self):
        self.handle_any(send_body=True)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.request_body = self.rfile.read(length) if length else b""
        self.handle_any(send_body=True)

    def handle_any(self, send_body):
        url = urlsplit(self.path)
        query = parse_qs(url.query)

        def arg(name, default=None):
            values = query.get(name)
            return values[0] if values else default

        if url.path == "/__release":
            gate(arg("id", "")).set()
            self.send_fixed(200, "text/plain", [], b"released", True)
            return

        if url.path == "/__stats":
            with LOCK:
                body = json.dumps(stats_for(arg("path", "/"))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return

        with LOCK:
            entry = stats_for(url.path)
            entry["requests"] += 1
            entry["hosts"].append(self.headers.get("Host", ""))

        self.stats_path = url.path
        delay = int(arg("delay", "0"))
        if delay:
            time.sleep(delay / 1000)

        status = int(arg("status", "200"))
        content_type = arg("type", "application/octet-stream")
        extra = [h.split(":", 1) for h in query.get("header", []) if ":" in h]
        gates = {}
        for value in query.get("gate", []):
            identifier, _, count = value.rpartition(":")
            gates.setdefault(int(count), []).append(identifier)
        try:
            if arg("wait"):
                self.hold(arg("wait"))
            if arg("echo"):
                payload = {
                    "method": self.command,
                    "path": self.path,
                    "headers": [[k, v] for k, v in self.headers.items()],
                    "body": getattr(self, "request_body", b"").decode("utf-8", "replace"),
                }
                self.send_fixed(status, "application/json", extra, json.dumps(payload).encode(), send_body)
            elif arg("body") is not None:
                self.send_fixed(status, arg("type", "text/plain"), extra, arg("body").encode(), send_body)
            elif arg("chunks"):
                self.send_chunked(status, content_type, extra, int(arg("chunks")), int(arg("chunk", "1024")),
                                  int(arg("interval", "0")), gates, send_body)
            else:
                size = int(arg("size", "0"))
                if arg("ranges") and not arg("cut"):
                    self.send_ranged(status, content_type, extra, size, send_body)
                    with LOCK:
                        stats_for(url.path)["completed"] += 1
                    return
                if size > _BLOCK and not arg("cut"):
                    self.send_streamed(status, content_type, extra, size, send_body)
                    with LOCK:
                        stats_for(url.path)["completed"] += 1
                    return
                body = pattern(0, size)
                if arg("cut"):
                    self.send_cut(status, content_type, extra, body)
                    with LOCK:
                        stats_for(url.path)["aborted"] += 1
                    return
                self.send_fixed(status, content_type, extra, body, send_body)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            with LOCK:
                stats_for(url.path)["aborted"] += 1
            self.close_connection = True
            return
        with LOCK:
            stats_for(url.path)["completed"] += 1

    def hold(self, identifier):
        """Waits until gate `identifier` is released; raises ConnectionAbortedError when the client
        closes the connection meanwhile or the gate stays closed for longer than MAX_HOLD."""
        event = gate(identifier)
        with LOCK:
            stats_for(self.stats_path)["held"] += 1
        try:
            deadline = time.monotonic() + MAX_HOLD
            while not event.wait(0.02):
                if client_closed(self.connection):
                    raise ConnectionAbortedError("the client closed the connection at gate " + identifier)
                if time.monotonic() >= deadline:
                    raise ConnectionAbortedError("gate %s was not released within %g s" % (identifier, MAX_HOLD))
        finally:
            with LOCK:
                stats_for(self.stats_path)["held"] -= 1

    def send_head(self, status, content_type, extra):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in extra:
            self.send_header(name.strip(), value.strip())

    def send_fixed(self, status, content_type, extra, body, send_body):
        self.send_head(status, content_type, extra)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)
        self.wfile.flush()

    def send_streamed(self, status, content_type, extra, size, send_body):
        self.send_head(status, content_type, extra)
        self.send_header("Content-Length", str(size))
        self.end_headers()
        self.wfile.flush()
        if send_body:
            write_pattern(self.wfile, size)
        self.wfile.flush()

    def send_ranged(self, status, content_type, extra, size, send_body):
        etag = '"size-%d"' % size
        start = 0
        wanted = self.headers.get("Range", "")
        if_range = self.headers.get("If-Range")
        end = size - 1
        if status == 200 and wanted.startswith("bytes=") and "," not in wanted and if_range in (None, etag):
            first, _, last = wanted[len("bytes="):].partition("-")
            start = int(first)
            if last:
                end = min(end, int(last))
            if start < size and start <= end:
                status = 206
                with LOCK:
                    stats_for(self.stats_path)["ranged"] += 1
            else:
                start, end = 0, size - 1
        self.send_head(status, content_type, extra)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.send_header("Content-Length", str(end + 1 - start))
        self.end_headers()
        self.wfile.flush()
        if send_body:
            write_pattern(self.wfile, end + 1 - start, start)
        self.wfile.flush()

    def send_cut(self, status, content_type, extra, body):
        self.send_head(status, content_type, extra)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.close_connection = True

    def send_chunked(self, status, content_type, extra, count, size, interval, gates, send_body):
        self.send_head(status, content_type, extra)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        if not send_body:
            return
        offset = 0
        for index in range(count):
            for identifier in gates.get(index, []):
                self.hold(identifier)
            if index and interval:
                time.sleep(interval / 1000)
            data = pattern(offset, size)
            offset += size
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        for identifier in gates.get(count, []):
            self.hold(identifier)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-lifetime", type=float, default=600)
    parser.add_argument("--max-hold", type=float, default=30)
    options = parser.parse_args()
    global MAX_HOLD
    MAX_HOLD = options.max_hold

    ThreadingHTTPServer.request_queue_size = 128
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(1024):
                pass
        except Exception:
            pass
        os._exit(0)

    def watch_lifetime():
        time.sleep(options.max_lifetime)
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Thread(target=watch_lifetime, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
