"""`schemeserve` as a child process, for the Playwright scripts beside this file."""

import signal
import subprocess


class SchemeServe:
    """`schemeserve <directory> <arguments> --port <port>` (0: any free port), until stop()."""

    def __init__(self, binary, directory, arguments, port=0):
        self.process = subprocess.Popen(
            [binary, directory, *arguments, "--port", str(port), "--no-access-log"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("Serving "):
            self.process.kill()
            raise RuntimeError("schemeserve did not start: %r %s" % (line, self.process.stderr.read()))
        self.port = int(line.rstrip("/").rsplit(":", 1)[1])
        self.url = "http://127.0.0.1:%d/" % self.port

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode
