#!/usr/bin/env python3
"""The conformance page's backend: a real HTTP/1.1 server on 127.0.0.1 (stdlib only).

Started by Tests/EngineConformanceTests. Binds a free port, prints it as the first line of stdout,
and exits when stdin closes (the test process ended). Two roles:

- the app's own backend behind SchemeKit's network fallback and nginx's proxy, under /dyn/:
    /dyn/cookie-set     Set-Cookie: server=1
    /dyn/cookie-echo    {"cookie": "<the Cookie header it received>"}
    /dyn/sse            server-sent events "one", "two", "three", 300 ms apart
    /dyn/paused?id=X    a chunked body: 64 KiB, then nothing until /dyn/release?id=X (at most
                        10 s), then 64 KiB more
    /dyn/release?id=X   opens that gate; answers "released" when a response was waiting at it (not
                        when it had given up waiting)
- a local API the page calls across origins (Local Network Access, CORS):
    /api/json           {"ok": true}, with CORS for the page's Origin (preflights answered)
    /ws                 a WebSocket that echoes text messages (RFC 6455, unfragmented frames)
"""

import base64
import hashlib
import json
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

GATES = {}
WAITING = set()
LOCK = threading.RLock()


def gate(identifier):
    with LOCK:
        return GATES.setdefault(identifier, threading.Event())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away mid-response (an EventSource closed)

    def send_plain(self, status, body, content_type="text/plain; charset=utf-8", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def cors(self):
        origin = self.headers.get("Origin")
        if not origin:
            return []
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                ("Access-Control-Allow-Methods", "GET, PUT, POST"),
                ("Access-Control-Allow-Headers", "Content-Type"),
                ("Access-Control-Allow-Private-Network", "true")]

    def do_OPTIONS(self):
        self.send_response(204)
        for name, value in self.cors():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_PUT(self):
        self.do_GET()

    def do_POST(self):
        self.do_GET()

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if url.path == "/dyn/cookie-set":
            self.send_plain(200, "set", headers=[("Set-Cookie", "server=1; Path=/")])
        elif url.path == "/dyn/cookie-echo":
            self.send_plain(200, json.dumps({"cookie": self.headers.get("Cookie") or ""}), "application/json")
        elif url.path == "/dyn/sse":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for index, name in enumerate(["one", "two", "three"]):
                if index:
                    time.sleep(0.3)  # paces the stream: the page checks the events come apart
                self.chunk(f"data: {name}\n\n".encode())
            self.chunk(b"")
        elif url.path == "/dyn/paused":
            identifier = query.get("id", [""])[0]
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.chunk(b"a" * 65536)
            with LOCK:
                WAITING.add(identifier)
            gate(identifier).wait(10)
            with LOCK:
                WAITING.discard(identifier)  # a release after this finds nothing waiting
            self.chunk(b"b" * 65536)
            self.chunk(b"")
        elif url.path == "/dyn/release":
            identifier = query.get("id", [""])[0]
            with LOCK:
                waiting = identifier in WAITING
                gate(identifier).set()
            self.send_plain(200, "released" if waiting else "nothing was waiting")
        elif url.path == "/api/json":
            self.send_plain(200, json.dumps({"ok": True}), "application/json", headers=self.cors())
        elif url.path == "/ws" and self.headers.get("Upgrade", "").lower() == "websocket":
            self.websocket()
        else:
            self.send_plain(404, "not found")

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def websocket(self):
        key = self.headers.get("Sec-WebSocket-Key", "")
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept.decode())
        self.end_headers()
        self.wfile.flush()
        while True:
            header = self.rfile.read(2)
            if len(header) < 2:
                return
            opcode, length = header[0] & 0x0F, header[1] & 0x7F
            if length == 126:
                length = struct.unpack(">H", self.rfile.read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self.rfile.read(8))[0]
            mask = self.rfile.read(4) if header[1] & 0x80 else b"\0\0\0\0"
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(self.rfile.read(length)))
            if opcode == 0x8:  # close
                self.wfile.write(b"\x88\x00")
                return
            if opcode == 0x1:  # text: echoed
                frame = bytes([0x81]) + (bytes([len(payload)]) if len(payload) < 126 else
                                          b"\x7e" + struct.pack(">H", len(payload)))
                self.wfile.write(frame + payload)
                self.wfile.flush()


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the test process closes stdin or ends


if __name__ == "__main__":
    main()
