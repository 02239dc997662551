#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/) from the repository's fixtures and corpora.

Each seed starts with the selector byte its target reads first: the dialect
for `hook`, a floor example for `command` (a context, a floor example and a
way of joining lines for `contexts`), the policy format for `policy`
and `cache` (odd: a policy round-tripped through the cache); `argv` reads two
bytes for the program and one for the form, then NUL-separated arguments.
"""
import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"
# The formats `warden::fuzzing::parse` reads, by selector.
FORMATS = {"warden": 0, "permissions": 1, "plugin": 2, "hermes-config": 3, "trust": 4, "spec": 5}


def put(target, data):
    directory = OUT / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def format_of(path):
    name = path.name
    if name == "permissions.yaml":
        return "permissions"
    if name == "trust.json":
        return "trust"
    if "custom" in name or "patterns" in name:
        return "plugin"
    if ".hermes" in path.parts or "alt-hermes" in path.parts:
        return "hermes-config"
    return "warden"


def main():
    for n, payload in enumerate(sorted((ROOT / "fixtures").rglob("*.json"))):
        if payload.name.endswith(".expected.json") or ".world" in str(payload):
            continue
        put("hook", bytes([n % 4]) + payload.read_bytes())
    for n, corpus in enumerate(sorted((ROOT / "tests" / "corpus").glob("*.jsonl"))):
        for m, line in enumerate(corpus.read_text().splitlines()):
            try:
                command = json.loads(line).get("command")
            except (json.JSONDecodeError, AttributeError):
                continue
            if isinstance(command, str) and m % 4 == 0:
                put("command", bytes([(n + m) % 256]) + command.encode())
                put("contexts", bytes([(n + m) % 256, m % 256, n % 4]) + command.encode())
    # Argument lists that stop where a parser wants more, for programs
    # across the whole list (the index wraps round it).
    grids = [[], ["--"], ["-"], ["-x"], ["--x="], ["é"], ["-é"], ["a", "--", "b"], ["-c"], ["-o"]]
    for n in range(0, 1024, 3):
        args = grids[n % len(grids)]
        put("argv", bytes([n >> 8, n & 255, n % 16]) + b"\0".join(a.encode() for a in args))
    policies = [ROOT / "examples" / "config.yaml"]
    policies += [p for p in (ROOT / "fixtures").rglob("*") if p.is_file() and ".world" in str(p)
                 and p.suffix in (".yaml", ".yml", ".json")]
    for path in sorted(policies):
        selector = FORMATS[format_of(path)]
        text = path.read_bytes()
        put("policy", bytes([selector]) + text)
        put("cache", bytes([selector * 2 + 1]) + text)
    for spec in ["terminal(git push:*)", "write_file(src/**)", "mcp__github__*", "Bash(npm run test:*)"]:
        put("policy", bytes([FORMATS["spec"]]) + spec.encode())


if __name__ == "__main__":
    main()
