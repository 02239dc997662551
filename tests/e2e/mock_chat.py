"""A small mock of the OpenAI chat completions API for driving a real agent that speaks it (Copilot CLI, OpenCode).

Copilot CLI is pointed at it with `COPILOT_OFFLINE=true` and `COPILOT_PROVIDER_BASE_URL=
http://127.0.0.1:PORT/v1` (no account); OpenCode through a custom provider (`"npm":
"@ai-sdk/openai-compatible"`, `"options": {"baseURL": "http://127.0.0.1:PORT/v1"}`). Both post
`/v1/chat/completions` with `"stream": true`, answered with server-sent-event chunks and `data:
[DONE]` (a request without `stream` gets one JSON completion):

- a request that offers no tools (OpenCode's session title, Copilot's summaries) gets text: a tool
  call there keeps `opencode run` from ever exiting;
- a request whose last message is the user's is answered with ONE tool call: `self.tool` with
  `self.args` (again in a conversation resumed with a new prompt);
- every `{"role": "tool"}` message's content is recorded in `self.results` (what the model was
  told the tool did), and a request ending in one is answered with the text "Done.".

Usage:
    mock = MockChat(); mock.start()
    mock.tool, mock.args = "bash", {"command": "git status", "description": "status"}
    ... run the agent with its base URL = mock.base_url ...
    mock.results   # ["<what the tool call returned or why it was denied>", ...]
    mock.stop()
"""

import json
import threading
import time

import mock_server


def _text(content):
    """A message's content as text (a string or content parts)."""
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else json.dumps(content)


class MockChat:
    def __init__(self):
        self.tool = "bash"
        self.args = {"command": "true", "description": "run"}
        self.results = []
        self.seen = set()  # the tool_call_ids whose results are recorded
        self.calls = 0
        self.lock = threading.Lock()
        mock = self

        class Handler(mock_server.Handler):
            def do_GET(self):
                models = {"object": "list", "data": [{"id": "mock-model", "object": "model"}]}
                self.send(json.dumps(models).encode(), "application/json")

            def do_POST(self):
                request = self.json_body()
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self.send(b'{"error":{"message":"not found"}}', "application/json", 404)
                message = mock.answer(request)
                model = request.get("model") or "mock"
                if request.get("stream"):
                    body = "".join("data: %s\n\n" % json.dumps(c) for c in _chunks(message, model))
                    return self.send((body + "data: [DONE]\n\n").encode(), "text/event-stream")
                self.send(json.dumps(_completion(message, model)).encode(), "application/json")

        self.server = mock_server.Server(Handler)
        self.base_url = "http://127.0.0.1:%d/v1" % self.server.port

    def answer(self, request):
        """The assistant message for one request: text, the scripted tool call, or "Done."."""
        messages = [m for m in request.get("messages") or [] if isinstance(m, dict)]
        if not request.get("tools"):
            return {"role": "assistant", "content": "warden e2e"}
        with self.lock:
            for m in messages:
                if m.get("role") == "tool" and m.get("tool_call_id") not in self.seen:
                    self.seen.add(m.get("tool_call_id"))
                    self.results.append(_text(m.get("content")))
            if messages and messages[-1].get("role") == "user":
                self.calls += 1
                call = {"id": "call_mock_%d" % self.calls, "type": "function",
                        "function": {"name": self.tool, "arguments": json.dumps(self.args)}}
                return {"role": "assistant", "content": None, "tool_calls": [call]}
        return {"role": "assistant", "content": "Done."}

    def start(self):
        self.server.start()

    def stop(self):
        self.server.stop()


def _finish(message):
    return "tool_calls" if message.get("tool_calls") else "stop"


USAGE = {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}


def _completion(message, model):
    return {"id": "chatcmpl-mock", "object": "chat.completion", "created": int(time.time()),
            "model": model, "usage": USAGE,
            "choices": [{"index": 0, "message": message, "finish_reason": _finish(message)}]}


def _chunks(message, model):
    """The message as streamed chunks: the whole delta, then the finish reason and usage."""
    delta = dict(message)
    if delta.get("tool_calls"):
        delta["tool_calls"] = [dict(c, index=n) for n, c in enumerate(delta["tool_calls"])]
    head = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": model}
    return [dict(head, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
            dict(head, choices=[{"index": 0, "delta": {}, "finish_reason": _finish(message)}],
                 usage=USAGE)]
