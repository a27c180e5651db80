"""An HTTP server on loopback that serves one file with byte ranges, and misbehaves on request,
for the offline pack's tests of what networks do. Prints its port, then serves until killed.

  range_server.py FILE MODE [DELAY]

DELAY, in seconds, is waited before each answer: a server that far away (markerpaint-bench pack).

MODE:
  ranges        206 with the range asked, an ETag, keep-alive (as nginx does)
  flaky         each range's first request answers 503, every fifth range's second 429 with Retry-After: 1
  cut           every fourth request's body is cut off halfway and the connection closed
  no-range      200 with the whole file, whatever the Range
  html          200 text/html, a login page
  etag-change   the ETag changes after the first four requests
  xyz           serves FILE as a folder of z/x/y files; every seventh request answers 503
  static        serves FILE as a folder, with byte ranges; /__stats answers the requests and body
                bytes served so far
  folder        serves FILE as a folder, 200 with the whole file whatever the Range (as
                python3 -m http.server does)
"""
import http.server
import os
import socket
import socketserver
import sys
import threading
import time

FILE, MODE = sys.argv[1], sys.argv[2]
DELAY = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
count = 0
served = 0
lock = threading.Lock()
attempts = {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body go in separate writes: with Nagle's algorithm on, the body would wait
        # for the client's delayed ACK (40 ms) on every response.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self):
        global count
        if MODE == "static" and self.path == "/__stats":
            with lock:
                body = ('{"requests": %d, "bytes": %d}' % (count, served)).encode()
            return self.simple(200, body, "application/json")
        if DELAY:
            time.sleep(DELAY)
        with lock:
            count += 1
            n = count
        if MODE == "xyz":
            if n % 7 == 0:
                return self.simple(503, b"busy")
            path = os.path.join(FILE, self.path.lstrip("/"))
            if not os.path.isfile(path):
                return self.simple(404, b"<html>no tile</html>")
            return self.simple(200, open(path, "rb").read(), "image/png")
        if MODE in ("static", "folder"):
            path = os.path.normpath(os.path.join(FILE, self.path.split("?")[0].lstrip("/")))
            if not path.startswith(os.path.abspath(FILE)) or not os.path.isfile(path):
                return self.simple(404, b"no such file")
            if MODE == "folder":
                kind = "text/html" if path.endswith(".html") else "image/png" if path.endswith(".png") else "application/octet-stream"
                return self.simple(200, open(path, "rb").read(), kind)
            return self.ranged(open(path, "rb").read(), '"static"')
        if os.path.basename(self.path) != os.path.basename(FILE):
            return self.simple(404, b"<html>not found</html>", "text/html")
        if MODE == "html":
            return self.simple(200, b"<!doctype html><html><body>Please log in</body></html>" * 400, "text/html")
        if MODE == "flaky":
            with lock:
                key = self.headers.get("Range")
                attempts[key] = attempts.get(key, 0) + 1
                attempt, ranges = attempts[key], len(attempts)
            if attempt == 1:
                return self.simple(503, b"try again")
            if attempt == 2 and ranges % 5 == 0:
                self.send_response(429)
                self.send_header("Retry-After", "1")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        data = open(FILE, "rb").read()
        etag = '"v1"' if MODE != "etag-change" or n <= 4 else '"v2"'
        if MODE == "no-range":
            return self.simple(200, data, "application/octet-stream", etag)
        self.ranged(data, etag, n)

    def ranged(self, data, etag, n=0):
        header = self.headers.get("Range")
        if not header:
            return self.simple(200, data, "application/octet-stream", etag)
        first, last = header.removeprefix("bytes=").split("-")
        first, last = int(first), min(int(last), len(data) - 1)
        body = data[first:last + 1]
        self.send_response(206)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Range", f"bytes {first}-{last}/{len(data)}")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.end_headers()
        if MODE == "cut" and n % 4 == 0 and len(body) > 1:
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.count(len(body))
        self.wfile.write(body)

    def count(self, length):
        global served
        with lock:
            served += length

    def simple(self, status, body, kind="text/plain", etag=None):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        self.count(len(body))
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
