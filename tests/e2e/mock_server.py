"""What the mock model servers share: a quiet HTTP/1.1 handler that reads a request's body and
answers with a length, and the server that runs it on a free port of 127.0.0.1 from a thread of
its own. Each mock (mock_anthropic.py, mock_chat.py, mock_gemini.py, mock_openai.py) subclasses
`Handler` with its own `do_GET`/`do_POST` and starts it with `Server`."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    """A request handler that logs nothing and keeps the connection open (HTTP/1.1, as the
    agents' clients expect)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        """The request's body as bytes, empty when it has no Content-Length."""
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def json_body(self):
        """The request's body as JSON; {} when it is empty or not JSON."""
        raw = self.body()
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return {}

    def send(self, body, content_type, status=200, headers=()):
        """Answers with `body` (bytes) as `content_type`, with the (name, value) `headers` after
        the type and before the length."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server:
    """`handler` served on `host` (port `port`, 0 for a free one) from a daemon thread, between
    start() and stop()."""

    def __init__(self, handler, host="127.0.0.1", port=0):
        self.http = ThreadingHTTPServer((host, port), handler)

    @property
    def port(self):
        return self.http.server_address[1]

    def start(self):
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def stop(self):
        self.http.shutdown()
        self.http.server_close()
