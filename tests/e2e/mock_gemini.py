"""A small mock of the Gemini API for driving a real Gemini CLI.

Gemini CLI is pointed at it with `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT`, an API key and
`security.auth.selectedType: gemini-api-key` in its settings. It posts
`/v1beta/models/<model>:streamGenerateContent?alt=sse` (answered with one server-sent event) and,
for side requests, `:generateContent`:

- a request whose conversation has a user turn and no `functionResponse` yet is answered with ONE
  `functionCall` part: `self.tool` with `self.args`;
- a request carrying a `functionResponse` is answered with the text "Done.", and the response is
  recorded in `self.responses` (what the model was told the tool did);
- a request asking for JSON (Gemini's routing and next-speaker checks) gets a small JSON answer.

Usage:
    mock = MockGemini(); mock.start()
    mock.tool, mock.args = "run_shell_command", {"command": "git status"}
    ... run gemini with GOOGLE_GEMINI_BASE_URL = mock.base_url ...
    mock.responses   # [{"name": ..., "response": {"output": ...} or {"error": ...}}]
    mock.stop()
"""

import json
import threading

import mock_server


class MockGemini:
    def __init__(self):
        self.tool = "run_shell_command"
        self.args = {"command": "true"}
        self.responses = []
        self.lock = threading.Lock()
        mock = self

        class Handler(mock_server.Handler):
            def do_GET(self):
                self.send(json.dumps({"models": []}).encode(), "application/json")

            def do_POST(self):
                request = self.json_body()
                if ":countTokens" in self.path:
                    return self.send(json.dumps({"totalTokens": 10}).encode(), "application/json")
                answer = mock.answer(request)
                if ":streamGenerateContent" in self.path:
                    body = ("data: %s\n\n" % json.dumps(answer)).encode()
                    return self.send(body, "text/event-stream")
                self.send(json.dumps(answer).encode(), "application/json")

        self.server = mock_server.Server(Handler)
        self.base_url = "http://127.0.0.1:%d" % self.server.port

    def answer(self, request):
        contents = request.get("contents") or []
        parts_in = [p for c in contents for p in (c.get("parts") or []) if isinstance(p, dict)]
        results = [p["functionResponse"] for p in parts_in if "functionResponse" in p]
        wants_json = (request.get("generationConfig") or {}).get("responseMimeType") == "application/json"
        if wants_json:
            parts = [{"text": json.dumps({"reasoning": "done", "next_speaker": "user",
                                          "model_choice": "flash"})}]
        elif results:
            with self.lock:
                for result in results:
                    if result not in self.responses:
                        self.responses.append(result)
            parts = [{"text": "Done."}]
        elif any(c.get("role") == "user" for c in contents):
            parts = [{"functionCall": {"name": self.tool, "args": self.args}}]
        else:
            parts = [{"text": "Done."}]
        return {"candidates": [{"content": {"role": "model", "parts": parts},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 5,
                                  "totalTokenCount": 10},
                "modelVersion": "mock"}

    def start(self):
        self.server.start()

    def stop(self):
        self.server.stop()
