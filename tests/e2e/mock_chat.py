"""A small mock of the OpenAI chat completions API for driving a real OpenCode.

OpenCode is pointed at it through a custom provider (`"npm": "@ai-sdk/openai-compatible"`,
`"options": {"baseURL": "http://127.0.0.1:PORT/v1"}`). It posts `/v1/chat/completions` with
`"stream": true` and is answered with server-sent events (`chat.completion.chunk`s, then
`[DONE]`); a request without `stream` gets one `chat.completion`:

- a request that offers no tools (OpenCode's session-title request) is answered with text: a tool
  call there keeps `opencode run` from ever exiting;
- a request carrying a `role: "tool"` message is answered with the text "Done.", and each tool
  message is recorded in `self.results` (what the model was told the tool did);
- any other request is answered with ONE tool call: `self.tool` with `self.args`.

Usage:
    mock = MockChat(); mock.start()
    mock.tool, mock.args = "bash", {"command": "git status", "description": "status"}
    ... run opencode with the provider's baseURL = mock.base_url ...
    mock.results   # [{"tool_call_id": ..., "content": ...}]
    mock.stop()
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CALL_ID = "call_warden_e2e"


class MockChat:
    def __init__(self):
        self.tool = "bash"
        self.args = {"command": "true"}
        self.results = []
        self.lock = threading.Lock()
        mock = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                models = {"object": "list", "data": [{"id": "mock-model", "object": "model"}]}
                self._send(json.dumps(models).encode(), "application/json")

            def do_POST(self):
                size = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(size) or b"{}")
                except ValueError:
                    request = {}
                delta, finish = mock.answer(request)
                head = {"id": "chatcmpl-e2e", "created": int(time.time()),
                        "model": request.get("model", "mock-model")}
                usage = {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}
                if not request.get("stream"):
                    message = dict(delta, role="assistant")
                    body = dict(head, object="chat.completion", usage=usage,
                                choices=[{"index": 0, "message": message, "finish_reason": finish}])
                    return self._send(json.dumps(body).encode(), "application/json")
                chunks = [
                    dict(head, object="chat.completion.chunk",
                         choices=[{"index": 0, "delta": dict(delta, role="assistant"),
                                   "finish_reason": None}]),
                    dict(head, object="chat.completion.chunk", usage=usage,
                         choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
                ]
                events = "".join("data: %s\n\n" % json.dumps(c) for c in chunks) + "data: [DONE]\n\n"
                self._send(events.encode(), "text/event-stream")

            def _send(self, body, content_type):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = "http://127.0.0.1:%d/v1" % self.server.server_address[1]

    def answer(self, request):
        """The assistant's delta and finish reason for one request."""
        messages = [m for m in request.get("messages") or [] if isinstance(m, dict)]
        results = [m for m in messages if m.get("role") == "tool"]
        if results:
            with self.lock:
                for m in results:
                    result = {"tool_call_id": m.get("tool_call_id"), "content": _text(m.get("content"))}
                    if result not in self.results:
                        self.results.append(result)
            return {"content": "Done."}, "stop"
        if not request.get("tools"):
            return {"content": "warden e2e"}, "stop"
        call = {"index": 0, "id": CALL_ID, "type": "function",
                "function": {"name": self.tool, "arguments": json.dumps(self.args)}}
        return {"content": None, "tool_calls": [call]}, "tool_calls"

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def _text(content):
    """A message's content as text (a string or a list of parts)."""
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else json.dumps(content)
