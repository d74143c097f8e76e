# SPDX-License-Identifier: BSD-3-Clause
"""Starting and stopping `hpcdb view` for the tests (no browser)."""
import http.client
import os
import re
import signal
import subprocess
import time


class Server:
    def __init__(self, hpcdb, *paths, env=None):
        self.proc = subprocess.Popen([hpcdb, "view", "--port", "0", "--no-browser", *paths],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline()
        m = re.match(r"hpcdb view: http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})$", line.strip())
        if not m:
            self.proc.kill()
            raise RuntimeError(f"hpcdb view printed {line!r}: {self.proc.stderr.read()}")
        self.hint = self.proc.stdout.readline()
        self.port, self.token = int(m.group(1)), m.group(2)
        self.url = f"http://127.0.0.1:{self.port}/?token={self.token}"

    def get(self, path, token=True, host=None, method="GET"):
        """(status, headers, body bytes) of one request."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        if token:
            path += ("&" if "?" in path else "?") + "token=" + self.token
        headers = {"Host": host} if host else {}
        c.request(method, path, headers=headers)
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, dict(r.getheaders()), body

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -1
