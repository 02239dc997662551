"""A small mock of the OpenAI Responses API for driving a real Codex CLI.

Codex is pointed at it through a `[model_providers.mock]` entry (`base_url =
"http://127.0.0.1:PORT/v1"`, `wire_api = "responses"`). Every `POST
/v1/responses` is answered with a server-sent-event stream:

- a request whose input holds a user message with the conversation marker
  (`MockOpenAI.MARKER`) and no output for the call this mock issued answers
  with ONE function call that runs `self.command` through whichever shell tool
  the request offers (`shell_command {command}`, `exec_command {cmd}` or
  `shell {command: [argv]}`); when `self.patch` is set instead, the one call
  is `apply_patch` with that patch text (a custom tool call when Codex offers
  apply_patch as a freeform tool, else a function call `{input}`);
- the request carrying that call's `function_call_output` answers with a short
  final assistant message, or, while fewer than `self.tries` outputs of this
  mock's calls are in the conversation, with the same call again (the model
  retrying it), after handing the last output to `self.between`, if set;
- anything else (side requests) gets a short assistant message.

Every function_call_output received is recorded in `self.outputs` (call_id,
output text), every request body in `self.requests`, so a test can see what
ran or what a hook's denial said.

Usage:
    mock = MockOpenAI(); mock.start()
    mock.command = "git status"
    ... run codex with base_url = mock.base_url ...
    mock.outputs_for_command("git status")
    mock.stop()
"""

import itertools
import json
import threading

import mock_server

# Shell tools Codex may offer, in the order this mock prefers them, and how
# each one takes its command.
SHELL_TOOLS = (
    ("shell_command", lambda cmd: {"command": cmd}),
    ("exec_command", lambda cmd: {"cmd": cmd}),
    ("shell", lambda cmd: {"command": ["bash", "-lc", cmd]}),
)


def _text_of(output):
    """A function_call_output's `output` as text (a string or content parts)."""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "\n".join(
            part.get("text", "") for part in output if isinstance(part, dict)
        )
    if isinstance(output, dict):
        return output.get("content") or json.dumps(output)
    return json.dumps(output)


def _user_texts(items):
    for item in items:
        if item.get("type") == "message" and item.get("role") == "user":
            content = item.get("content")
            if isinstance(content, str):
                yield content
            elif isinstance(content, list):
                for part in content:
                    if isinstance(part, dict) and isinstance(part.get("text"), str):
                        yield part["text"]


class MockOpenAI:
    MARKER = "WARDEN-E2E"

    def __init__(self, host="127.0.0.1", port=0):
        self.command = "true"
        self.patch = None  # when set, the tool call is apply_patch with this text
        self.tries = 1  # how many times the call is made in one conversation
        self.between = None  # called with the last output's text before each retry
        self.requests = []  # every POST body (parsed JSON), in order
        self.outputs = []  # {"call_id", "command", "output"} per function_call_output seen
        self.calls = {}  # call_id -> {"command", "tool", "arguments"}
        self.other = []  # (method, path) of requests that are not POST /v1/responses
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        mock = self

        class Handler(mock_server.Handler):
            def do_GET(self):
                with mock._lock:
                    mock.other.append(("GET", self.path))
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [], "models": []})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                raw = self.body()
                if not self.path.rstrip("/").endswith("/responses"):
                    with mock._lock:
                        mock.other.append(("POST", self.path))
                    self._json(404, {"error": {"message": "not found"}})
                    return
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_unparsed": raw[:200].decode("utf-8", "replace")}
                events = mock._answer(body)
                self._sse(events)

            def _json(self, status, obj):
                self.send(json.dumps(obj).encode(), "application/json", status)

            def _sse(self, events):
                chunks = []
                for ev in events:
                    chunks.append(
                        "event: %s\ndata: %s\n\n" % (ev["type"], json.dumps(ev))
                    )
                data = "".join(chunks).encode()
                self.send(data, "text/event-stream", headers=[("Cache-Control", "no-cache")])
                self.wfile.flush()

        self._server = mock_server.Server(Handler, host, port)

    # -- lifecycle -----------------------------------------------------------
    @property
    def port(self):
        return self._server.port

    @property
    def base_url(self):
        return "http://127.0.0.1:%d/v1" % self.port

    def start(self):
        self._server.start()
        return self

    def stop(self):
        self._server.stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- queries for tests -----------------------------------------------------
    def outputs_for_command(self, command):
        with self._lock:
            return [o["output"] for o in self.outputs if o["command"] == command]

    def calls_for_command(self, command):
        with self._lock:
            return [c for c in self.calls.values() if c["command"] == command]

    # -- the model -------------------------------------------------------------
    def _answer(self, body):
        items = body.get("input") or []
        if isinstance(items, str):
            items = [{"type": "message", "role": "user", "content": items}]
        with self._lock:
            self.requests.append(body)
            done, last = 0, None
            for item in items:
                if item.get("type") in ("function_call_output", "custom_tool_call_output"):
                    call_id = item.get("call_id")
                    call = self.calls.get(call_id)
                    if call is None:
                        continue
                    done += 1
                    last = _text_of(item.get("output"))
                    if not call.get("answered"):
                        call["answered"] = True
                        self.outputs.append(
                            {
                                "call_id": call_id,
                                "command": call["command"],
                                "output": _text_of(item.get("output")),
                            }
                        )
            ours = any(self.MARKER in t for t in _user_texts(items))
            answered = done >= self.tries
            if ours and done and not answered and self.between is not None:
                self.between(last)
            n = next(self._ids)
            resp_id = "resp_mock_%d" % n
            if ours and not answered and self.patch is not None:
                call_id = "call_mock_%d" % n
                custom = self._offers_custom(body.get("tools") or [], "apply_patch")
                self.calls[call_id] = {
                    "command": self.patch,
                    "tool": "apply_patch",
                    "arguments": self.patch if custom else {"input": self.patch},
                }
                if custom:
                    item = {
                        "type": "custom_tool_call",
                        "id": "ctc_mock_%d" % n,
                        "call_id": call_id,
                        "name": "apply_patch",
                        "input": self.patch,
                    }
                else:
                    item = {
                        "type": "function_call",
                        "id": "fc_mock_%d" % n,
                        "call_id": call_id,
                        "name": "apply_patch",
                        "arguments": json.dumps({"input": self.patch}),
                    }
            elif ours and not answered:
                tool, arguments = self._shell_call(body.get("tools") or [])
                call_id = "call_mock_%d" % n
                self.calls[call_id] = {
                    "command": self.command,
                    "tool": tool,
                    "arguments": arguments,
                }
                item = {
                    "type": "function_call",
                    "id": "fc_mock_%d" % n,
                    "call_id": call_id,
                    "name": tool,
                    "arguments": json.dumps(arguments),
                }
            else:
                item = {
                    "type": "message",
                    "role": "assistant",
                    "id": "msg_mock_%d" % n,
                    "content": [{"type": "output_text", "text": "Done."}],
                }
        return [
            {"type": "response.created", "response": {"id": resp_id}},
            {"type": "response.output_item.done", "item": item},
            {
                "type": "response.completed",
                "response": {
                    "id": resp_id,
                    "usage": {
                        "input_tokens": 0,
                        "input_tokens_details": None,
                        "output_tokens": 0,
                        "output_tokens_details": None,
                        "total_tokens": 0,
                    },
                },
            },
        ]

    @staticmethod
    def _offers_custom(tools, name):
        return any(
            isinstance(t, dict) and t.get("name") == name and t.get("type") == "custom"
            for t in tools
        )

    def _shell_call(self, tools):
        offered = set()
        for tool in tools:
            if isinstance(tool, dict):
                name = tool.get("name") or (tool.get("function") or {}).get("name")
                if name:
                    offered.add(name)
        for name, make in SHELL_TOOLS:
            if name in offered:
                return name, make(self.command)
        # Nothing recognisable offered: fall back to the first spelling.
        name, make = SHELL_TOOLS[0]
        return name, make(self.command)


if __name__ == "__main__":
    import time

    with MockOpenAI() as m:
        print(m.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
