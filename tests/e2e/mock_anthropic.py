"""A tiny mock of the Anthropic Messages API, for driving the real Claude Code in tests.

    mock = MockAnthropic(); mock.start()          # listens on 127.0.0.1:<free port>
    mock.script("Bash", {"command": "git status"})  # the next conversation's one tool call
    ... run `claude -p` with ANTHROPIC_BASE_URL=mock.url ...
    mock.tool_results  # [{"content": ..., "is_error": ...}] that the client reported
    mock.stop()

A request whose tools include the scripted tool and whose last message carries no
tool_result is answered with that tool call (once per script); the request carrying the
tool_result is recorded and answered with a short final text. Everything else (title or
summary generation, quota probes, token counting, unknown paths) gets a harmless answer.
"""

import itertools
import json
import threading

import mock_server

FINAL_TEXT = "Done."
_ids = itertools.count(1)


def _message(content, stop_reason, model):
    return {"id": "msg_e2e_%d" % next(_ids), "type": "message", "role": "assistant",
            "model": model, "content": content, "stop_reason": stop_reason,
            "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}


def _sse(msg):
    """The streaming form of one complete message, as the Messages API frames it."""
    events = []
    start = dict(msg, content=[], stop_reason=None, usage={"input_tokens": 10, "output_tokens": 0})
    events.append(("message_start", {"type": "message_start", "message": start}))
    for i, block in enumerate(msg["content"]):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": dict(block, input={})}))
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
                                     "usage": {"output_tokens": 5}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return "".join("event: %s\ndata: %s\n\n" % (name, json.dumps(data)) for name, data in events).encode()


class MockAnthropic:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []       # (method, path, summary) of every request, for debugging
        self.tool_results = []   # every tool_result block received: {"content", "is_error", "tool_use_id"}
        self.tool = None         # (name, input) still to be sent as a tool call, or None
        self.server = None

    def script(self, name, tool_input):
        with self.lock:
            self.tool = (name, tool_input)

    def answer(self, method, path, body):
        """(status, json or SSE bytes, is_sse) for one request."""
        if method != "POST" or not path.startswith("/v1/messages"):
            return 200, {}, False
        if "count_tokens" in path:
            return 200, {"input_tokens": 10}, False
        model = body.get("model", "claude-sonnet-4-5")
        last = (body.get("messages") or [{}])[-1]
        content = last.get("content") if isinstance(last.get("content"), list) else []
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        tools = {t.get("name") for t in body.get("tools") or []}
        with self.lock:
            if results:
                for r in results:
                    self.tool_results.append({"content": r.get("content"), "is_error": bool(r.get("is_error")),
                                              "tool_use_id": r.get("tool_use_id")})
                msg = _message([{"type": "text", "text": FINAL_TEXT}], "end_turn", model)
            elif self.tool and self.tool[0] in tools:
                name, tool_input = self.tool
                self.tool = None
                msg = _message([{"type": "tool_use", "id": "toolu_e2e_%d" % next(_ids),
                                 "name": name, "input": tool_input}], "tool_use", model)
            else:  # a side request (title, summary, probe...), or a turn after the script was used
                msg = _message([{"type": "text", "text": "ok"}], "end_turn", model)
        return (200, _sse(msg), True) if body.get("stream") else (200, msg, False)

    def start(self):
        mock = self

        class Handler(mock_server.Handler):
            def handle_one(self):
                body = self.json_body()
                status, payload, is_sse = mock.answer(self.command, self.path, body)
                summary = {"stream": body.get("stream"), "tools": len(body.get("tools") or []),
                           "max_tokens": body.get("max_tokens"), "messages": len(body.get("messages") or [])}
                with mock.lock:
                    mock.requests.append((self.command, self.path, summary))
                data = payload if is_sse else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/event-stream" if is_sse else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("request-id", "req_e2e_%d" % next(_ids))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = handle_one

        self.server = mock_server.Server(Handler)
        self.server.start()
        return self

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server.port

    def stop(self):
        if self.server:
            self.server.stop()
            self.server = None
