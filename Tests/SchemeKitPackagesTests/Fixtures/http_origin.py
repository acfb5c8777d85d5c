"""A loopback HTTP origin for the package store tests.

Serves the files of the directory given as the first argument on 127.0.0.1 (never another address),
on a free port that it prints as the first line of its output. It stops when its standard input
closes, so it cannot outlive the test process that started it.
"""
import http.server
import os
import sys
import threading


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    os.chdir(sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)

    def watch_stdin():
        sys.stdin.read()
        server.shutdown()

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
