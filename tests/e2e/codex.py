#!/usr/bin/env python3
"""End-to-end: warden as a PreToolUse hook of the real Codex CLI.

    python3 tests/e2e/codex.py --codex /path/to/codex --warden /abs/path/to/warden

Codex runs against tests/e2e/mock_openai.py (a local Responses API that asks
for one shell command per conversation), in a throwaway HOME / CODEX_HOME with
a git project as cwd, approvals and sandbox off (`--dangerously-bypass-
approvals-and-sandbox`), so warden is the only guard. Each case is one
`codex exec` run; the verdicts are read from what Codex fed back to the model
(the mock records every function_call_output), from codex's stderr and from
the filesystem. Two cases apply a patch (`apply_patch <<'EOF'` through the
shell tool): one that also adds ~/.ssh/authorized_keys is refused whole by
warden's files.ssh, one inside the project is applied. One conversation runs
`git reset --hard` three times: refused with an allow-once code, approved by
`warden allow-once CODE` from a terminal between the tries, run once, refused
again.

Registration is `register(home, warden)`: by default it writes
$CODEX_HOME/hooks.json by hand and records the hook's trust through
`codex app-server` (hooks/list, then config/batchWrite on `hooks.state`), the
same exchange Codex's TUI performs when a person approves a hook. With
WARDEN_E2E_INSTALL=1 it runs `warden install --agent codex` instead.

Prints `PASS name` / `FAIL name: detail` per case, then `N passed, N failed`;
exits 1 on any failure.
"""

import argparse
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from drivers import run_bounded, tally  # noqa: E402
from mock_openai import MockOpenAI  # noqa: E402

EXEC_TIMEOUT = 120  # seconds per `codex exec` run
RPC_TIMEOUT = 60  # seconds per app-server session
MATCHER = "Bash|apply_patch"
WARDEN_CONFIG = """\
rules:
  deny:
    - "terminal(git push --force:*)"
    - "terminal(touch ran-untrusted)"
"""
# The second rule exists only for the untrusted/trusted cases: a hook that
# fired would refuse that touch, so the file appearing proves it did not.


class Env:
    """A throwaway home: HOME, CODEX_HOME, XDG_* under it, a git project."""

    def __init__(self, root, codex, mock):
        self.root = root
        self.codex = codex
        self.home = os.path.join(root, "home")
        self.codex_home = os.path.join(self.home, ".codex")
        self.project = os.path.join(root, "project")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "HOME": self.home,
            "CODEX_HOME": self.codex_home,
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "LANG": "C.UTF-8",
            "GIT_AUTHOR_NAME": "e2e",
            "GIT_AUTHOR_EMAIL": "e2e@example.invalid",
            "GIT_COMMITTER_NAME": "e2e",
            "GIT_COMMITTER_EMAIL": "e2e@example.invalid",
        }
        for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            os.makedirs(self.env[key], exist_ok=True)
        os.makedirs(self.codex_home, exist_ok=True)
        os.makedirs(self.project, exist_ok=True)

        with open(os.path.join(self.codex_home, "config.toml"), "w") as f:
            f.write(
                'model = "mock-model"\n'
                'model_provider = "mock"\n'
                "\n"
                "[model_providers.mock]\n"
                'name = "mock"\n'
                'base_url = "%s"\n'
                'wire_api = "responses"\n' % mock.base_url
            )
        wdir = os.path.join(self.env["XDG_CONFIG_HOME"], "warden")
        os.makedirs(wdir, exist_ok=True)
        with open(os.path.join(wdir, "config.yaml"), "w") as f:
            f.write(WARDEN_CONFIG)

        git = lambda *a: subprocess.run(  # noqa: E731
            ["git", *a], cwd=self.project, env=self.env, check=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        git("init", "-q")
        with open(os.path.join(self.project, "notes.txt"), "w") as f:
            f.write("committed\n")
        git("add", "notes.txt")
        git("commit", "-q", "-m", "init")
        # An uncommitted change `git reset --hard` would destroy.
        with open(os.path.join(self.project, "notes.txt"), "a") as f:
            f.write("uncommitted\n")

    @property
    def hooks_json(self):
        return os.path.join(self.codex_home, "hooks.json")


# -- Codex app-server (JSON-RPC 2.0 over stdio, one JSON object per line, no
#    "jsonrpc" member needed) ------------------------------------------------

def app_server(codex, env, requests, timeout=RPC_TIMEOUT):
    """Run `codex app-server`, do the initialize handshake, send each
    (method, params) in turn and return their `result`s. Raises on a JSON-RPC
    error or a timeout."""
    proc = subprocess.Popen(
        [codex, "app-server"], env=env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )
    lines = queue.Queue()

    def pump():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout

    def send(msg):
        proc.stdin.write(json.dumps(msg) + "\n")
        proc.stdin.flush()

    def wait_for(req_id):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("app-server: no answer to request %r in %ss" % (req_id, timeout))
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError("app-server exited before answering request %r" % req_id)
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("id") != req_id or "method" in msg:
                continue  # notifications and server requests
            if "error" in msg:
                raise RuntimeError("app-server error for %r: %s" % (req_id, json.dumps(msg["error"])))
            return msg.get("result")

    try:
        send({"id": 0, "method": "initialize",
              "params": {"clientInfo": {"name": "warden-e2e", "version": "0"}}})
        wait_for(0)
        send({"method": "initialized"})
        results = []
        for n, (method, params) in enumerate(requests, 1):
            send({"id": n, "method": method, "params": params})
            results.append(wait_for(n))
        return results
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def list_hooks(e):
    """Codex's view of the PreToolUse hooks for the project: key, currentHash,
    trustStatus, command, ..."""
    (result,) = app_server(e.codex, e.env, [("hooks/list", {"cwds": [e.project]})])
    return [h for entry in result["data"] for h in entry["hooks"]
            if h.get("eventName") == "preToolUse"]


def trust_hooks(e, hooks):
    """Record trust for `hooks` (entries from hooks/list) the way Codex's TUI
    does: config/batchWrite, keyPath hooks.state, upsert
    {key: {trusted_hash: currentHash}}."""
    value = {h["key"]: {"trusted_hash": h["currentHash"]} for h in hooks}
    app_server(e.codex, e.env, [("config/batchWrite", {
        "edits": [{"keyPath": "hooks.state", "value": value, "mergeStrategy": "upsert"}],
        "reloadUserConfig": True,
    })])


def write_hooks_json(e, warden):
    command = "%s --agent codex" % warden
    with open(e.hooks_json, "w") as f:
        json.dump({"hooks": {"PreToolUse": [{"matcher": MATCHER, "hooks": [
            {"type": "command", "command": command, "timeout": 5}]}]}}, f)
    return command


def register(e, warden):
    """Register warden with Codex in home `e`: by hand (hooks.json + trust via
    app-server), or with WARDEN_E2E_INSTALL=1 through `warden install`."""
    if os.environ.get("WARDEN_E2E_INSTALL") == "1":
        # Then `warden doctor` must find the hook registered and trusted.
        for verb in ("install", "doctor"):
            p = subprocess.run([warden, verb, "--agent", "codex"], env=e.env,
                               cwd=e.project, capture_output=True, text=True, timeout=120,
                               stdin=subprocess.DEVNULL)
            if p.returncode != 0:
                raise RuntimeError("warden %s --agent codex exited %d: %s"
                                   % (verb, p.returncode, (p.stdout + p.stderr).strip()[-600:]))
        return
    command = write_hooks_json(e, warden)
    ours = [h for h in list_hooks(e) if h.get("command") == command]
    if not ours:
        raise RuntimeError("hooks/list does not show the hook written to %s" % e.hooks_json)
    trust_hooks(e, ours)


# -- running codex ---------------------------------------------------------------

def codex_exec(e, mock, command, tries=1, between=None):
    """One `codex exec` conversation in which the model runs `command` (`tries` times, with
    `between` called on each output before the next try). Returns (returncode, stdout, stderr,
    outputs fed back for that command)."""
    mock.command = command
    mock.patch = None
    mock.tries, mock.between = tries, between
    before = len(mock.outputs_for_command(command))
    argv = [e.codex, "exec", "--dangerously-bypass-approvals-and-sandbox",
            "--color", "never", "-C", e.project,
            "%s: run the shell command `%s`." % (MockOpenAI.MARKER, command)]
    try:
        code, out, err = run_bounded(argv, e.project, e.env, EXEC_TIMEOUT)
    finally:
        mock.tries, mock.between = 1, None
    if code is None:
        raise RuntimeError("codex exec timed out after %ss; stderr tail: %s"
                           % (EXEC_TIMEOUT, err.strip()[-400:]))
    return code, out, err, mock.outputs_for_command(command)[before:]


def codex_patch(e, mock, patch):
    """One `codex exec` conversation in which the model applies `patch` the way Codex's shell
    tool takes it, `apply_patch <<'EOF'` (Codex 0.169 offers a model it does not know no
    apply_patch tool of its own). Returns what codex_exec returns."""
    return codex_exec(e, mock, "apply_patch <<'EOF'\n%sEOF" % patch)


def one_output(outputs, err):
    if len(outputs) != 1:
        raise AssertionError("expected one tool output for the command, got %d; stderr tail: %s"
                             % (len(outputs), err.strip()[-300:]))
    return outputs[0]


def short(text, n=200):
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n] + "..."


# -- cases -----------------------------------------------------------------------

def case_untrusted(e, mock, warden):
    """hooks.json written, no trust recorded: Codex skips the hook silently, so a
    command warden's config denies runs anyway."""
    write_hooks_json(e, warden)
    hooks = list_hooks(e)
    status = [h["trustStatus"] for h in hooks]
    if status != ["untrusted"]:
        raise AssertionError("hooks/list trustStatus %r, expected ['untrusted']" % status)
    marker = os.path.join(e.project, "ran-untrusted")
    rc, out, err, outputs = codex_exec(e, mock, "touch ran-untrusted")
    try:
        one_output(outputs, err)
        if not os.path.exists(marker):
            raise AssertionError("ran-untrusted was not created: %s" % short(outputs[0]))
        if "hook: PreToolUse" in err:
            raise AssertionError("a PreToolUse hook ran although untrusted")
        return "ran unguarded (no hook line on stderr)"
    finally:
        # Leave a clean home for register() (and for `warden install`).
        os.remove(e.hooks_json)
        if os.path.exists(marker):
            os.remove(marker)


def case_trusted(e, mock, warden):
    """After register(): Codex lists the hook as trusted, and the same touch is
    now refused by warden's deny rule."""
    hooks = [h for h in list_hooks(e) if "warden" in (h.get("command") or "")]
    if not hooks:
        raise AssertionError("hooks/list shows no PreToolUse hook running warden")
    bad = [(h["key"], h["trustStatus"]) for h in hooks if h["trustStatus"] != "trusted"]
    if bad:
        raise AssertionError("not trusted: %r" % bad)
    rc, out, err, outputs = codex_exec(e, mock, "touch ran-untrusted")
    text = one_output(outputs, err)
    if os.path.exists(os.path.join(e.project, "ran-untrusted")):
        raise AssertionError("touch ran although trusted warden denies it: %s" % short(text))
    if "PreToolUse hook" not in text or "deny rule" not in text:
        raise AssertionError("unexpected feedback: %s" % short(text))
    return "%d hook(s) trusted; touch refused" % len(hooks)


def case_rm_root(e, mock, warden):
    rc, out, err, outputs = codex_exec(e, mock, "rm -rf /")
    text = one_output(outputs, err)
    if "hardline." not in text or "PreToolUse hook" not in text:
        raise AssertionError("not refused by warden: %s" % short(text))
    return short(text, 120)


def case_push_force(e, mock, warden):
    rc, out, err, outputs = codex_exec(e, mock, "git push --force origin main")
    text = one_output(outputs, err)
    if "PreToolUse hook" not in text or "deny rule" not in text or "git push --force" not in text:
        raise AssertionError("not refused by the user deny rule: %s" % short(text))
    return short(text, 120)


def case_reset_hard(e, mock, warden):
    rc, out, err, outputs = codex_exec(e, mock, "git reset --hard")
    text = one_output(outputs, err)
    with open(os.path.join(e.project, "notes.txt")) as f:
        intact = "uncommitted" in f.read()
    if not intact:
        raise AssertionError("git reset --hard ran (uncommitted change lost): %s" % short(text))
    if "PreToolUse hook" not in text or "run it yourself" not in text:
        raise AssertionError("refusal lacks 'run it yourself': %s" % short(text))
    return short(text, 120)


def case_allow_once(e, mock, warden):
    """In one conversation the model runs `git reset --hard` three times. The first is refused
    with a code; before the retry the person runs `warden allow-once CODE` in a terminal (a pty
    from `script`); the retry runs (the uncommitted change is gone); the third is refused again."""
    approvals = []

    def person(output):
        found = re.search(r"`warden allow-once ([A-Z0-9]{6})`", output or "")
        if approvals or not found:
            return
        line = "%s allow-once %s" % (shlex.quote(warden), found.group(1))
        approvals.append((found.group(1), subprocess.run(
            ["script", "-qec", line, "/dev/null"], env=e.env, cwd=e.project, capture_output=True,
            text=True, timeout=60, stdin=subprocess.DEVNULL)))

    rc, out, err, outputs = codex_exec(e, mock, "git reset --hard", tries=3, between=person)
    if len(outputs) != 3:
        raise AssertionError("expected three tool outputs, got %d: %r" % (len(outputs), outputs))
    if not approvals:
        raise AssertionError("the first refusal offered no code: %s" % short(outputs[0]))
    code, p = approvals[0]
    if p.returncode != 0 or "approved once" not in p.stdout:
        raise AssertionError("allow-once exited %d: %s" % (p.returncode, short(p.stdout + p.stderr)))
    with open(os.path.join(e.project, "notes.txt")) as f:
        if "uncommitted" in f.read():
            raise AssertionError("the approved retry did not run: %s" % short(outputs[1]))
    if "PreToolUse hook" in outputs[1]:
        raise AssertionError("the approved retry was refused: %s" % short(outputs[1]))
    if "PreToolUse hook" not in outputs[2] or "warden allow-once" not in outputs[2]:
        raise AssertionError("the third try was not refused with a code: %s" % short(outputs[2]))
    if code in outputs[2]:
        raise AssertionError("the spent code %s was offered again" % code)
    return "refused with %s, approved, ran once, refused again" % code


def case_git_status(e, mock, warden):
    rc, out, err, outputs = codex_exec(e, mock, "git status")
    text = one_output(outputs, err)
    if "On branch" not in text:
        raise AssertionError("git status did not run: %s" % short(text))
    if "hook: PreToolUse" not in err:
        raise AssertionError("no PreToolUse hook ran (stderr has no hook line)")
    if "PreToolUse Failed" in err:
        raise AssertionError("Codex logged 'hook: PreToolUse Failed' (warden's answer was not {})")
    if "PreToolUse Completed" not in err:
        raise AssertionError("no 'hook: PreToolUse Completed' line: %s" % short(err[-400:]))
    return "ran; hook Completed"


def case_patch_ssh(e, mock, warden):
    """An apply_patch that adds ~/.ssh/authorized_keys beside a file in the project:
    warden refuses the whole patch (files.ssh), and neither file is written."""
    key = os.path.join(e.home, ".ssh", "authorized_keys")
    patch = ("*** Begin Patch\n*** Add File: notes-e2e.txt\n+fine\n"
             "*** Add File: %s\n+ssh-ed25519 AAAA e2e\n*** End Patch\n" % key)
    rc, out, err, outputs = codex_patch(e, mock, patch)
    if os.path.exists(key) or os.path.exists(os.path.join(e.project, "notes-e2e.txt")):
        raise AssertionError("the patch was applied")
    text = one_output(outputs, err)
    if "PreToolUse hook" not in text or "files.ssh" not in text:
        raise AssertionError("not refused by warden's files.ssh: %s" % short(text))
    return short(text, 120)


def case_patch_project(e, mock, warden):
    """An apply_patch inside the project: warden has no objection and the file is written."""
    target = os.path.join(e.project, "added-by-patch.txt")
    patch = "*** Begin Patch\n*** Add File: added-by-patch.txt\n+hello\n*** End Patch\n"
    rc, out, err, outputs = codex_patch(e, mock, patch)
    if not os.path.exists(target):
        raise AssertionError("the patch was not applied; outputs %r, stderr tail %s"
                             % (outputs, short(err[-300:])))
    if "hook: PreToolUse" not in err:
        raise AssertionError("no PreToolUse hook ran for apply_patch")
    if "PreToolUse Failed" in err:
        raise AssertionError("Codex logged 'hook: PreToolUse Failed' for apply_patch")
    return "applied; hook Completed"


def case_uninstall(e, mock, warden):
    """`warden uninstall` takes the hook and its trust record out (through Codex
    itself): hooks/list shows no warden hook and config.toml keeps no record of it."""
    keys = [h["key"] for h in list_hooks(e) if "warden" in (h.get("command") or "")]
    p = subprocess.run([warden, "uninstall", "--agent", "codex"], env=e.env, cwd=e.project,
                       capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        raise AssertionError("warden uninstall exited %d: %s" % (p.returncode, short(p.stdout + p.stderr)))
    left = [h["key"] for h in list_hooks(e) if "warden" in (h.get("command") or "")]
    if left:
        raise AssertionError("hooks/list still shows %r" % left)
    with open(os.path.join(os.path.dirname(e.hooks_json), "config.toml")) as f:
        toml = f.read()
    kept = [k for k in keys if k in toml]
    if kept:
        raise AssertionError("config.toml still holds the trust record of %r" % kept)
    return "removed %d hook(s) and their trust" % len(keys)


CASES = [
    ("untrusted", case_untrusted),
    ("trusted", case_trusted),
    ("rm-root", case_rm_root),
    ("push-force", case_push_force),
    ("reset-hard", case_reset_hard),
    ("allow-once", case_allow_once),
    ("git-status", case_git_status),
    ("patch-ssh", case_patch_ssh),
    ("patch-in-project", case_patch_project),
    ("uninstall", case_uninstall),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--codex", required=True, help="path to the codex CLI")
    ap.add_argument("--warden", required=True, help="absolute path to the warden binary")
    ap.add_argument("--keep", action="store_true", help="keep the throwaway directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each case's detail")
    args = ap.parse_args()
    warden = os.path.abspath(args.warden)
    codex = shutil.which(args.codex) or args.codex
    codex = os.path.abspath(codex)

    passed = failed = 0
    root = tempfile.mkdtemp(prefix="warden-e2e-codex-")
    mock = MockOpenAI().start()
    t0 = time.monotonic()
    try:
        e = Env(root, codex, mock)
        registered = None
        for name, fn in CASES:
            try:
                if name != "untrusted" and registered is None:
                    try:
                        register(e, warden)
                        registered = True
                    except Exception as exc:  # noqa: BLE001
                        registered = "register failed: %s" % exc
                if name != "untrusted" and registered is not True:
                    raise AssertionError(registered)
                detail = fn(e, mock, warden)
                passed += 1
                print("PASS %s%s" % (name, (": " + detail) if args.verbose and detail else ""))
            except Exception as exc:  # noqa: BLE001
                failed += 1
                print("FAIL %s: %s" % (name, short(str(exc), 400)))
            sys.stdout.flush()
    finally:
        mock.stop()
        if args.keep:
            print("kept %s" % root, file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    if args.verbose:
        print("(%.1fs)" % (time.monotonic() - t0))
    return tally(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
