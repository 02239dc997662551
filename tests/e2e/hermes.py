#!/usr/bin/env python3
"""End-to-end check of warden inside a real Hermes Agent install (no model, nothing executed).

    <hermes-venv>/bin/python tests/e2e/hermes.py --warden /abs/path/to/warden

Runs in the Hermes venv so it can import Hermes. Everything happens in a throwaway HOME and
HERMES_HOME. What it proves, for whichever Hermes is installed (its capabilities are asked of
its own code, never read from a version string):

  register  warden's `hooks.pre_tool_call` entry plus a consent record, written as an installer
            would (or by `warden install`, with WARDEN_E2E_INSTALL=1), make Hermes' own
            register_from_config wire the hook with no TTY prompt and no --accept-hooks.
  a-d       Hermes' real dispatch path (model_tools.handle_function_call, which fires
            pre_tool_call and the approval gate just as the agent loop does) decides about
            terminal calls; the terminal tool's handler is replaced by a recorder, so no command
            ever runs. a: `rm -rf /` blocked by a hardline rule; b: a user deny rule blocks;
            c: `git reset --hard` (warden: ask) is blocked with how-to-run-it-yourself text where
            Hermes cannot ask, and reaches Hermes' approval gate (refused: no human) where it can;
            d: `git status` runs and warden says nothing Hermes honours; f: `write_file` to
            ~/.ssh/authorized_keys is blocked by warden's own files.ssh rule (Hermes' in-process
            check would refuse it too; the message shows warden decided first).
  g         where Hermes cannot ask: the block of an ask carries a code; `warden allow-once CODE`
            run in a terminal (a pty from `script`), as the person would; the same call then runs
            once, and a third try is blocked again.
  e         the dict-keyed shape `hooks: {pre_tool_call: {terminal: [warden]}}` registers no hook,
            so the agent runs unguarded (why warden's installer must rewrite that shape).

Prints `PASS name` / `FAIL name: detail` per case, then `N passed, N failed`; exit 1 on failure.
"""
import argparse
import atexit
import json
import logging
import re
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from types import SimpleNamespace

MATCHER = "terminal|write_file|patch|read_file|search_files"
# A command warden asks about (and Hermes' own gate lets run) that case c did not try, so its
# code is a fresh one.
ALLOW_ONCE_COMMAND = "git clean -fdx"
RESULTS = []  # (name, problems)


def report(name, problems):
    RESULTS.append((name, problems))
    print(f"PASS {name}" if not problems else f"FAIL {name}: {'; '.join(problems)}", flush=True)


def sandbox():
    """Throwaway HOME / HERMES_HOME / XDG dirs in os.environ, before Hermes is imported."""
    root = tempfile.mkdtemp(prefix="warden-e2e-hermes-")
    if os.environ.get("WARDEN_E2E_KEEP") != "1":  # WARDEN_E2E_KEEP=1 leaves it for a post-mortem
        atexit.register(shutil.rmtree, root, True)
    home = os.path.join(root, "home")
    for k in [k for k in os.environ if k.startswith(("HERMES_", "WARDEN_")) and not k.startswith("WARDEN_E2E_")]:
        del os.environ[k]  # no inherited yolo/interactive/gateway/accept-hooks/safe-mode switches
    os.environ.update(
        HOME=home, HERMES_HOME=os.path.join(home, ".hermes"),
        XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_CACHE_HOME=os.path.join(home, ".cache"),
        XDG_STATE_HOME=os.path.join(home, ".local", "state"),
        HERMES_MANAGED_DIR=os.path.join(root, "no-managed-scope"),  # absent dir: ignore /etc/hermes
    )
    for k in ("HERMES_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        os.makedirs(os.environ[k], exist_ok=True)
    work = os.path.join(root, "work")
    os.makedirs(work)
    os.chdir(work)  # Hermes sends its own cwd as `cwd`; keep the repo's files out of it
    return root


def probe():
    """Ask the installed Hermes what it supports (the same logic as the standalone probe)."""
    import importlib.metadata as md
    from agent import shell_hooks as sh
    dist = md.packages_distributions().get("agent", ["?"])[0]
    spec = sh._parse_single_entry("pre_tool_call", 0, {"command": "/x", "fail_closed": True})
    return {"version": f"{dist} {md.version(dist)}",
            "approve": sh._parse_response("pre_tool_call", '{"action":"approve"}') is not None,
            "fail_closed": getattr(spec, "fail_closed", None) is True}


def iso_utc(ts):
    """Hermes' timestamp format (agent/shell_hooks.py script_mtime_iso / _utc_now_iso)."""
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def write_private(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)


def record_consent(home, command):
    """Add/replace the (pre_tool_call, command) approval in $HERMES_HOME/shell-hooks-allowlist.json.
    `command` must be byte-identical to the (stripped) config string; the mtime is the binary's."""
    path = os.path.join(home, "shell-hooks-allowlist.json")
    try:
        data = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    approvals = [e for e in data.get("approvals", []) if not (
        isinstance(e, dict) and e.get("event") == "pre_tool_call" and e.get("command") == command)]
    approvals.append({"event": "pre_tool_call", "command": command, "approved_at": iso_utc(time.time()),
                      "script_mtime_at_approval": iso_utc(os.path.getmtime(shlex.split(command)[0]))})
    write_private(path, json.dumps({**data, "approvals": approvals}, indent=2, sort_keys=True))


def register(home, warden, supports_approve):
    """Register warden with the Hermes whose HERMES_HOME is `home`, the way an installer would.
    WARDEN_E2E_INSTALL=1: let `warden install --agent hermes --accept-hooks` do it instead, over the
    dict-keyed shape case e left behind (which it must rewrite), then `warden doctor` must pass."""
    if os.environ.get("WARDEN_E2E_INSTALL") == "1":
        for args in (["install", "--agent", "hermes", "--accept-hooks"], ["doctor", "--agent", "hermes"]):
            p = subprocess.run([warden, *args], env=dict(os.environ), capture_output=True, text=True,
                               timeout=120, stdin=subprocess.DEVNULL)
            print("\n".join(f"# {line}" for line in p.stdout.splitlines()))
            if p.returncode != 0:
                raise RuntimeError(f"warden {args[0]} exited {p.returncode}: {(p.stdout + p.stderr).strip()[-600:]}")
            if args[0] == "install" and "mapping keyed by tool name" not in p.stdout:
                raise RuntimeError("warden install did not say it fixed the dict-keyed shape")
        return
    command = shlex.quote(warden) + ("" if supports_approve else " --on-ask block")
    entry = [f"    - matcher: {json.dumps(MATCHER)}", f"      command: {json.dumps(command)}", "      timeout: 5"]
    if probe()["fail_closed"]:
        entry.append("      fail_closed: true")
    write_private(os.path.join(home, "config.yaml"), "\n".join(["hooks:", "  pre_tool_call:", *entry, ""]))
    record_consent(home, command)


class Spies:
    """Recorder for the terminal tool, plus taps on warden's runs, the approval gate and logs."""

    def __init__(self):
        import model_tools  # noqa: F401  (registers the built-in tools)
        from agent import shell_hooks
        from tools.registry import registry
        self.ran, self.spawns, self.gate, self.logs = [], [], [], []
        registry.get_entry("terminal").handler = self._terminal
        registry.get_entry("write_file").handler = self._write_file
        real_spawn = shell_hooks._spawn

        def spawn(spec, stdin_json):
            r = real_spawn(spec, stdin_json)
            self.spawns.append((json.loads(stdin_json), r))
            return r
        shell_hooks._spawn = spawn
        import tools.approval as approval
        real_gate = approval.request_tool_approval

        def gate(tool_name, reason, **kw):
            self.gate.append({"tool": tool_name, "reason": reason, **kw})
            return real_gate(tool_name, reason, **kw)
        approval.request_tool_approval = gate
        handler = logging.Handler(logging.WARNING)
        handler.emit = lambda rec: self.logs.append(rec.getMessage())
        logging.getLogger("agent.shell_hooks").addHandler(handler)

    def _terminal(self, args, **_kw):
        self.ran.append(args.get("command"))
        return json.dumps({"output": "(recorded by warden e2e, not executed)", "exit_code": 0})

    def _write_file(self, args, **_kw):
        self.ran.append(args.get("path"))
        return json.dumps({"success": True, "note": "(recorded by warden e2e, not written)"})

    def call(self, command, tool="terminal", args=None):
        """One model-issued call through Hermes' dispatch (a terminal `command`, or `tool` with
        `args`, recorded under `command`); what the model would see."""
        import model_tools
        n_ran, n_spawn, n_gate = len(self.ran), len(self.spawns), len(self.gate)
        seen = model_tools.handle_function_call(
            tool, args or {"command": command}, task_id="e2e", tool_call_id=f"call-{n_spawn}",
            session_id="e2e-session")
        try:
            error = json.loads(seen).get("error")
        except (ValueError, AttributeError):
            error = None
        spawns = self.spawns[n_spawn:]
        return SimpleNamespace(seen=seen, error=error or "", ran=command in self.ran[n_ran:],
                               gate=self.gate[n_gate:], hook_ran=bool(spawns),
                               stdout=[r["stdout"].strip() for _, r in spawns])


def hermes_register():
    """What Hermes' CLI startup does: register_from_config(load_config()), non-interactively."""
    from agent import shell_hooks
    from hermes_cli.config import load_config
    stdin, sys.stdin = sys.stdin, open(os.devnull)  # never a TTY consent prompt
    try:
        return shell_hooks.register_from_config(load_config(), accept_hooks=False)
    finally:
        sys.stdin.close()
        sys.stdin = stdin


def case_dict_shape(spies, home, warden):
    """e: the shape some articles show. Consent is recorded, so only the shape can be at fault."""
    write_private(os.path.join(home, "config.yaml"),
                  f"hooks:\n  pre_tool_call:\n    terminal:\n      - {json.dumps(warden)}\n")
    record_consent(home, warden)
    n_logs = len(spies.logs)
    specs = hermes_register()
    r = spies.call("git push --force origin main")
    problems = []
    if specs:
        problems.append(f"Hermes registered {len(specs)} hook(s) from the dict shape")
    if not any("must be a list of hook definitions; got dict" in m for m in spies.logs[n_logs:]):
        problems.append(f"expected Hermes' 'got dict' warning, logged: {spies.logs[n_logs:]}")
    if r.hook_ran or not r.ran:
        problems.append(f"expected the call to run unguarded (hook ran={r.hook_ran}, ran={r.ran})")
    report("e dict-keyed shape registers nothing", problems)
    if os.environ.get("WARDEN_E2E_INSTALL") == "1":
        return  # `warden install` must find and fix that shape
    for name in ("config.yaml", "shell-hooks-allowlist.json"):  # register() starts from a clean home
        os.remove(os.path.join(home, name))


def case_register(home, warden, caps):
    from agent import shell_hooks
    problems = []
    try:
        register(home, warden, caps["approve"])
        specs = [s for s in hermes_register() if s.event == "pre_tool_call"]
    except Exception as exc:  # noqa: BLE001
        specs, problems = [], [f"{type(exc).__name__}: {exc}"]
    if not problems and len(specs) != 1:
        problems.append(f"Hermes registered {len(specs)} pre_tool_call hooks, expected 1")
    for s in specs:
        entry = shell_hooks.allowlist_entry_for(s.event, s.command) or {}
        if shlex.split(s.command)[0] != warden:
            problems.append(f"command {s.command!r} does not run {warden}")
        if not s.matches_tool("terminal"):
            problems.append(f"matcher {s.matcher!r} does not cover terminal")
        if caps["fail_closed"] and not getattr(s, "fail_closed", False):
            problems.append("fail_closed not set though this Hermes supports it")
        if entry.get("script_mtime_at_approval") != shell_hooks.script_mtime_iso(s.command):
            problems.append("consent mtime differs from Hermes' own script_mtime_iso (doctor would flag drift)")
    report("register (config + consent, no prompt)", problems)
    return not problems


def blocked(r, *needles):
    problems = [] if r.hook_ran else ["warden was not run"]
    if r.ran:
        problems.append("the command reached the terminal tool")
    if not r.error:
        problems.append(f"not blocked; the model saw {r.seen[:200]}")
    problems += [f"message lacks {n!r}: {r.error[:300]}" for n in needles if r.error and n not in r.error]
    return problems


def allow_once(warden, code):
    """`warden allow-once CODE` as the person runs it: from a terminal (`script` gives it a pty)."""
    line = f"{shlex.quote(warden)} allow-once {shlex.quote(code)}"
    return subprocess.run(["script", "-qec", line, "/dev/null"], env=dict(os.environ), capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def case_allow_once(spies, warden, command):
    """g: blocked with a code, approved from a terminal, run once, then blocked again."""
    r = spies.call(command)
    problems = blocked(r, "warden allow-once ")
    found = re.search(r"`warden allow-once ([A-Z0-9]{6})`", r.error)
    if not found:
        return report("g allow-once: approved from a terminal, runs once", problems + ["no code offered"])
    p = allow_once(warden, found.group(1))
    if p.returncode != 0 or "approved once" not in p.stdout:
        problems.append(f"allow-once exited {p.returncode}: {(p.stdout + p.stderr).strip()[-300:]}")
    r = spies.call(command)
    if not r.ran or r.error:
        problems.append(f"the approved retry did not run; the model saw {r.seen[:300]}")
    problems += [f"warden answered {out} to the approved retry" for out in r.stdout if out not in ("", "{}")]
    r = spies.call(command)
    problems += [f"third try: {p}" for p in blocked(r, "warden allow-once ")]
    if found.group(1) in r.error:
        problems.append("the spent code was offered again")
    report("g allow-once: approved from a terminal, runs once", problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warden", required=True, help="absolute path of the warden binary")
    warden = os.path.abspath(ap.parse_args().warden)
    sandbox()
    home = os.environ["HERMES_HOME"]
    os.makedirs(os.path.join(os.environ["XDG_CONFIG_HOME"], "warden"))
    write_private(os.path.join(os.environ["XDG_CONFIG_HOME"], "warden", "config.yaml"),
                  'rules: {deny: ["terminal(git push --force:*)"]}\n')

    caps = probe()
    print(f"# {caps['version']}: approve={caps['approve']} fail_closed={caps['fail_closed']}", flush=True)
    spies = Spies()
    try:
        from hermes_cli.plugins import discover_plugins
        discover_plugins()  # the CLI loads plugins before shell hooks; keep that order
    except Exception as exc:  # noqa: BLE001
        print(f"# plugin discovery failed: {exc}", flush=True)

    case_dict_shape(spies, home, warden)
    if case_register(home, warden, caps):
        r = spies.call("rm -rf /")
        report("a rm -rf / blocked (hardline)", blocked(r, "Blocked", "hardline."))

        r = spies.call("git push --force origin main")
        report("b git push --force blocked by user deny rule", blocked(r, "Blocked", "deny"))

        r = spies.call("git reset --hard")
        if caps["approve"]:
            problems = [] if r.gate else ["Hermes' approval gate was not reached"]
            problems += [f"gate not asked with warden's reason: {g}" for g in r.gate
                         if "git reset --hard" not in g["reason"]]
            problems += blocked(r, "no interactive user")  # no human present: refused by the gate
            report("c git reset --hard sent to Hermes' approval gate", problems)
        else:
            problems = blocked(r, "run it yourself")
            problems += ["Hermes' approval gate was reached"] if r.gate else []
            report("c git reset --hard blocked with how to run it yourself", problems)
            case_allow_once(spies, warden, ALLOW_ONCE_COMMAND)

        r = spies.call("git status")
        problems = [] if r.hook_ran else ["warden was not run"]
        if not r.ran or r.error:
            problems.append(f"did not run; the model saw {r.seen[:200]}")
        from agent import shell_hooks
        for out in r.stdout:
            if out and json.loads(out) not in ({}, {"action": "allow"}):
                problems.append(f"warden answered {out}")
            if shell_hooks._parse_response("pre_tool_call", out) is not None:
                problems.append(f"Hermes honours warden's answer {out}")
        report("d git status proceeds, warden silent", problems)

        key = os.path.join(os.environ["HOME"], ".ssh", "authorized_keys")
        r = spies.call(key, "write_file", {"path": key, "content": "ssh-ed25519 AAAA e2e\n"})
        problems = blocked(r, "Blocked", "files.ssh")
        problems += [f"warden answered {out}" for out in r.stdout if "files.ssh" not in out]
        report("f write_file ~/.ssh/authorized_keys blocked by warden (files.ssh)", problems)
    else:
        for name in "abcdf":
            report(f"{name} (skipped)", ["registration failed"])

    failed = sum(1 for _, p in RESULTS if p)
    print(f"{len(RESULTS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
