#!/usr/bin/env python3
"""bench/soak.py [WARDEN] [N]: N (default 100,000) mixed payloads through one `warden check --batch`.

Prints the rate of each tenth of the stream (does it slow down over time?)
and the process's peak resident memory (does it grow?). The payloads mix
every corpus command under tests/corpus/ in Hermes', Claude Code's and
Codex's shapes, file tools, other events, unreadable lines and 97 working
directories. WARDEN defaults to target/release/warden.
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def commands(corpora=None):
    """The commands of the corpus files given, or of every file of tests/corpus."""
    found = []
    if corpora is None:
        corpora = sorted((ROOT / "tests" / "corpus").glob("*.jsonl"))
    for corpus in corpora:
        for line in corpus.read_text().splitlines():
            try:
                command = json.loads(line).get("command")
            except (json.JSONDecodeError, AttributeError):
                continue
            if isinstance(command, str):
                found.append(command)
    return found


def payload(n, command, home):
    cwd = f"{home}/project/d{n % 97}"
    shape = n % 9
    if shape == 0:
        return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "cwd": cwd, "session_id": "s"}
    if shape == 1:
        return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "cwd": cwd, "turn_id": "t", "model": "m"}
    if shape == 2:
        return {"hook_event_name": "pre_tool_call", "tool_name": "write_file", "tool_input": {"path": f"{cwd}/f{n % 13}.txt", "content": "x"}, "cwd": cwd}
    if shape == 3:
        return None
    if shape == 4:
        return {"hook_event_name": "post_tool_call", "tool_name": "terminal", "tool_input": {"command": command}}
    return {"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": command}, "cwd": cwd}


def peak_kib(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    warden = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "release" / "warden")
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    cmds = commands()
    home = tempfile.mkdtemp(prefix="warden-soak-")
    # A temporary home: warden keeps its cache and state under it (XDG_* homes
    # in a temporary directory would be ignored anyway).
    env = {"HOME": home, "PATH": "/usr/bin:/bin"}
    lines = []
    for n in range(total):
        p = payload(n, cmds[n % len(cmds)], home)
        lines.append("{broken" if p is None else json.dumps(p))
    child = subprocess.Popen([warden, "check", "--batch", "--agent", "native"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1 << 16)

    def feed():
        for line in lines:
            child.stdin.write(line + "\n")
        child.stdin.flush()

    writer = threading.Thread(target=feed)
    start = time.perf_counter()
    writer.start()
    tenth = max(total // 10, 1)
    marks, peaks, got = [], [], 0
    for _ in child.stdout:
        got += 1
        if got % tenth == 0:
            marks.append(time.perf_counter())
            peaks.append(peak_kib(child.pid))
        if got == total:
            break
    writer.join()
    child.stdin.close()
    child.wait()
    elapsed = marks[-1] - start if marks else time.perf_counter() - start
    print(f"{total} payloads ({len(cmds)} corpus commands, 9 shapes, 97 directories) in {elapsed:.2f} s: {total / elapsed:,.0f}/s")
    print("| tenth | payloads/s | peak RSS (MiB) |")
    print("|---|---|---|")
    previous = start
    for i, (mark, peak) in enumerate(zip(marks, peaks), 1):
        rate = tenth / (mark - previous)
        previous = mark
        print(f"| {i} | {rate:,.0f} | {peak / 1024 if peak else float('nan'):.1f} |")
    if got != total:
        print(f"ERROR: {got} verdicts for {total} payloads")
        sys.exit(1)


if __name__ == "__main__":
    main()
