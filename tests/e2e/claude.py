#!/usr/bin/env python3
"""End-to-end test of warden inside the real Claude Code, against a mock model.

    python3 tests/e2e/claude.py --claude /path/to/claude --warden /abs/path/to/warden

Every case is one `claude -p` run in a throwaway HOME and a throwaway git project; the mock
model (mock_anthropic.py) answers with one scripted tool call, and the case is judged from the
tool_result Claude sends back and from the filesystem. warden is registered as a PreToolUse
hook by register() (by hand, or with WARDEN_E2E_INSTALL=1 through `warden install`).

CASES run with a config of their own (WARDEN_CONFIG below); STARTER_CASES with the starter
config exactly as a fresh install leaves it: install.sh itself installs the binary and writes
the config (`install.sh --binary WARDEN --to ~/.local/bin --no-register`), and the copy it
installed is registered.

On a failure the case is run once more, in a fresh sandbox, with a wrapper registered in
warden's place that logs the hook's stdin and stdout, and that log, Claude's stderr and the
hook lines of Claude's debug log are printed. The verdicts come from runs where the
registered command is warden itself.
"""

import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from drivers import run_agent, tally, user_env  # noqa: E402
from mock_anthropic import MockAnthropic  # noqa: E402

RUN_TIMEOUT = 120
# What the throwaway ~/.aws/credentials holds; a read that happened shows it in the tool_result.
AWS_SECRET = "aws_secret_access_key = e2e-not-a-real-secret"
VERBOSE = False
MATCHER = "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Glob|Grep"
WARDEN_CONFIG = """\
rules: {deny: ["terminal(git push --force:*)"], allow: ["terminal(touch allowed-by-rule:*)"]}
"""


def write_settings(home, command):
    """~/.claude/settings.json with `command` as the one PreToolUse hook."""
    settings = {"hooks": {"PreToolUse": [{"matcher": MATCHER, "hooks": [
        {"type": "command", "command": command, "timeout": 5}]}]}}
    os.makedirs(os.path.join(home, ".claude"), exist_ok=True)
    with open(os.path.join(home, ".claude", "settings.json"), "w") as f:
        json.dump(settings, f, indent=2)


def register(home, warden):
    """Registers warden as Claude Code's PreToolUse hook for the user whose HOME is `home`:
    by hand, or with WARDEN_E2E_INSTALL=1 by `warden install --agent claude`."""
    if os.environ.get("WARDEN_E2E_INSTALL") == "1":
        # Then `warden doctor` must find nothing wrong with what install wrote.
        for verb in ("install", "doctor"):
            p = subprocess.run([warden, verb, "--agent", "claude"], env=user_env(home), cwd=home,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                raise RuntimeError("`warden %s --agent claude` failed (exit %d): %s" % (
                    verb, p.returncode, (p.stdout + p.stderr).strip()))
        return
    write_settings(home, "%s --agent claude" % shlex.quote(warden))


def tee_wrapper(warden, log):
    """A script that runs warden and appends its stdin, stdout and exit status to `log` (debugging only)."""
    path = os.path.join(os.path.dirname(log), "warden-tee.sh")
    with open(path, "w") as f:
        f.write("""#!/bin/sh
in=$(cat)
out=$(printf '%%s' "$in" | %s "$@")
rc=$?
printf 'stdin:  %%s\\nstdout: %%s\\nexit:   %%s\\n' "$in" "$out" "$rc" >> %s
printf '%%s\\n' "$out"
exit $rc
""" % (shlex.quote(warden), shlex.quote(log)))
    os.chmod(path, 0o755)
    return path


class Sandbox:
    """A throwaway HOME (with XDG dirs and warden's config) and a git project with a bare origin.

    With `starter`, install.sh installs warden into the HOME and writes its starter config."""

    def __init__(self, mock_url, warden, starter=False):
        self.root = tempfile.mkdtemp(prefix="warden-e2e-claude-")
        try:
            self._set_up(mock_url, warden, starter)
        except BaseException:
            self.cleanup()
            raise

    def _set_up(self, mock_url, warden, starter):
        self.home = os.path.join(self.root, "home")
        self.project = os.path.join(self.root, "project")
        self.remote = os.path.join(self.root, "origin.git")
        self.env = dict(user_env(self.home), **{
            "ANTHROPIC_BASE_URL": mock_url,
            "ANTHROPIC_API_KEY": "sk-ant-e2e-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
        })
        for d in ("TMPDIR", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            os.makedirs(self.env[d], exist_ok=True)
        if starter:
            warden = self.install(warden)
        else:
            xdg = self.env["XDG_CONFIG_HOME"]
            os.makedirs(os.path.join(xdg, "warden"))
            with open(os.path.join(xdg, "warden", "config.yaml"), "w") as f:
                f.write(WARDEN_CONFIG)
        os.makedirs(os.path.join(self.home, ".ssh"), mode=0o700)
        os.makedirs(os.path.join(self.home, ".aws"), mode=0o700)
        with open(os.path.join(self.home, ".aws", "credentials"), "w") as f:
            f.write("[default]\naws_access_key_id = AKIAE2E\n%s\n" % AWS_SECRET)
        with open(os.path.join(self.home, ".gitconfig"), "w") as f:
            f.write("[user]\n\tname = e2e\n\temail = e2e@example.invalid\n[init]\n\tdefaultBranch = main\n")
        os.makedirs(self.project)
        self.git("init", "-q", "--bare", self.remote, cwd=self.root)
        self.git("init", "-q")
        with open(os.path.join(self.project, "tracked.txt"), "w") as f:
            f.write("committed\n")
        self.git("add", "tracked.txt")
        self.git("commit", "-q", "-m", "first")
        self.git("remote", "add", "origin", self.remote)
        with open(os.path.join(self.project, "tracked.txt"), "w") as f:
            f.write("uncommitted change\n")  # what `git reset --hard` would throw away
        with open(os.path.join(self.project, "package.json"), "w") as f:
            json.dump({"name": "e2e", "version": "1.0.0", "scripts": {"test": "touch ran-npm-test"}}, f)
        register(self.home, warden)

    def install(self, warden):
        """Installs `warden` and the starter config as a fresh install does: install.sh's own
        steps, with the binary given instead of built and no agent registered. Returns the
        installed binary."""
        bin_dir = os.path.join(self.home, ".local", "bin")
        p = subprocess.run([os.path.join(ROOT, "install.sh"), "--binary", warden, "--to", bin_dir,
                            "--no-register"], env=self.env, cwd=self.root, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError("install.sh failed (exit %d): %s" % (p.returncode, (p.stdout + p.stderr).strip()))
        return os.path.join(bin_dir, "warden")

    def git(self, *args, cwd=None):
        return subprocess.run(["git", *args], cwd=cwd or self.project, env=self.env,
                              capture_output=True, text=True, check=True).stdout

    def run_claude(self, claude, debug_file):
        """One `claude -p` run, killed (with everything it started) after RUN_TIMEOUT seconds."""
        cmd = [claude, "-p", "Do the one step you were asked to do.", "--debug-file", debug_file]
        code, out, err = run_agent("claude", cmd, self.project, self.env, RUN_TIMEOUT)
        return (-signal.SIGKILL if code is None else code), out, err

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def text_of(result):
    c = result["content"]
    if isinstance(c, list):
        return "\n".join(b.get("text", "") for b in c if isinstance(b, dict))
    return c or ""


def transcript_record(sb, tool_use_id):
    """How Claude's session transcript labels the tool_result: {toolDenialKind, permissionDecision}.

    Internal to Claude Code (checked on 2.1.330), so a check uses it only when it is there."""
    projects = os.path.join(sb.home, ".claude", "projects")
    for dirpath, _, files in os.walk(projects):
        for fn in files:
            if not fn.endswith(".jsonl"):
                continue
            with open(os.path.join(dirpath, fn), errors="replace") as f:
                for line in f:
                    if tool_use_id not in line:
                        continue
                    try:
                        d = json.loads(line)
                    except ValueError:
                        continue
                    content = (d.get("message") or {}).get("content")
                    if d.get("type") == "user" and isinstance(content, list) and any(
                            b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id for b in content):
                        return {k: d[k] for k in ("toolDenialKind", "permissionDecision") if k in d}
    return {}


def hook_had_a_say(rec):
    """True when the transcript says a hook allowed, denied or asked (e.g. reasonCode `hook:PreToolUse`)."""
    pd = rec.get("permissionDecision") or {}
    return pd.get("source") == "hook" or str(pd.get("reasonCode", "")).startswith("hook:")


def hook_denied(r):
    """Claude 2.1.330's wording for a PreToolUse hook's deny: `PreToolUse:<Tool> hook error: <reason>`
    (2.1.197 sends the bare reason)."""
    return r["is_error"] and "hook error" in text_of(r)


# Each case: (name, tool, input(sandbox), check(sandbox, result, transcript record) -> None or a detail).
def case_rm_root(sb, r, rec):
    if not (r["is_error"] and "hardline." in text_of(r)):
        return "expected warden's hardline refusal, got %r" % r


def case_push_force(sb, r, rec):
    if not (r["is_error"] and "deny rule" in text_of(r)):
        return "expected warden's deny-rule refusal, got %r" % r
    if sb.git("ls-remote", "origin"):
        return "the push reached origin"


def case_reset_hard(sb, r, rec):
    with open(os.path.join(sb.project, "tracked.txt")) as f:
        if f.read() != "uncommitted change\n":
            return "git reset --hard ran: the uncommitted change is gone"
    if not r["is_error"] or hook_denied(r):
        return "expected a permission refusal (warden asked, nobody answered), got %r" % r
    if rec and rec.get("toolDenialKind") != "user-rejected":
        return "expected the permission prompt to be reached and left unanswered, transcript says %r" % rec


def case_git_status(sb, r, rec):
    if r["is_error"] or "On branch main" not in text_of(r):
        return "expected git status output, got %r" % r


def case_touch_outside(sb, r, rec):
    if os.path.exists(os.path.join(sb.home, "outside-project")):
        return "the file outside the project was created (tool_result %r, transcript %r)" % (r, rec)
    if not r["is_error"] or hook_denied(r):
        return "expected Claude's own permission refusal, got %r" % r
    if hook_had_a_say(rec):
        return "warden should have had no opinion, but the transcript says %r" % rec


def case_touch_allowed(sb, r, rec):
    if not os.path.exists(os.path.join(sb.project, "allowed-by-rule")):
        return "allowed-by-rule was not created (tool_result %r)" % r
    if r["is_error"]:
        return "the tool_result is an error: %r" % r


def case_write_ssh(sb, r, rec):
    if os.path.exists(os.path.join(sb.home, ".ssh", "authorized_keys")):
        return "~/.ssh/authorized_keys was written (tool_result %r, transcript %r)" % (r, rec)
    if not (hook_denied(r) and "files.ssh" in text_of(r)):
        return "expected warden's files.ssh refusal, got %r" % r


def link_keys(sb):
    """A symlink in the project that leads into ~/.ssh, as a planted repository might hold."""
    os.makedirs(os.path.join(sb.home, ".ssh"), exist_ok=True)
    link = os.path.join(sb.project, "keys")
    if not os.path.islink(link):
        os.symlink(os.path.join(sb.home, ".ssh"), link)
    return {"file_path": os.path.join(link, "authorized_keys"), "content": "ssh-ed25519 AAAA e2e\n"}


def case_write_through_link(sb, r, rec):
    if os.path.exists(os.path.join(sb.home, ".ssh", "authorized_keys")):
        return "~/.ssh/authorized_keys was written through the link (tool_result %r)" % r
    if not (hook_denied(r) and "files.ssh" in text_of(r)):
        return "expected warden's files.ssh refusal, got %r" % r


def case_write_in_project(sb, r, rec):
    # Claude's own permission check decides (in -p it may refuse); warden says nothing.
    if hook_denied(r):
        return "warden refused a write inside the project: %r" % r
    if hook_had_a_say(rec):
        return "warden should have had no opinion, but the transcript says %r" % rec


def case_read_aws_credentials(sb, r, rec):
    # The starter config allows nothing, so the read goes to a permission prompt (warden asks:
    # files.cloud-credentials), which nobody answers in -p: Claude does not read the file.
    if AWS_SECRET in text_of(r):
        return "~/.aws/credentials was read with no prompt: %r" % r
    if not r["is_error"] or hook_denied(r):
        return "expected the permission prompt, left unanswered, got %r" % r
    if rec and rec.get("toolDenialKind") != "user-rejected":
        return "expected the permission prompt to be reached and left unanswered, transcript says %r" % rec


def case_npm_test(sb, r, rec):
    # warden has no opinion on `npm test`; Claude's own check asks, and nobody answers.
    if os.path.exists(os.path.join(sb.project, "ran-npm-test")):
        return "npm test's script ran with no prompt (tool_result %r, transcript %r)" % (r, rec)
    if not r["is_error"] or hook_denied(r):
        return "expected Claude's own permission refusal, got %r" % r
    if hook_had_a_say(rec):
        return "warden should have had no opinion, but the transcript says %r" % rec


CASES = [
    ("rm-rf-root", "Bash", lambda sb: {"command": "rm -rf /", "description": "e2e"}, case_rm_root),
    ("git-push-force", "Bash", lambda sb: {"command": "git push --force origin main", "description": "e2e"},
     case_push_force),
    ("git-reset-hard", "Bash", lambda sb: {"command": "git reset --hard", "description": "e2e"}, case_reset_hard),
    ("git-status", "Bash", lambda sb: {"command": "git status", "description": "e2e"}, case_git_status),
    ("touch-outside-project", "Bash", lambda sb: {"command": "touch ~/outside-project", "description": "e2e"},
     case_touch_outside),
    ("touch-allowed-by-rule", "Bash", lambda sb: {"command": "touch allowed-by-rule", "description": "e2e"},
     case_touch_allowed),
    ("write-ssh-authorized-keys", "Write",
     lambda sb: {"file_path": os.path.join(sb.home, ".ssh", "authorized_keys"), "content": "ssh-ed25519 AAAA e2e\n"},
     case_write_ssh),
    ("write-through-symlink-into-ssh", "Write", link_keys, case_write_through_link),
    ("write-in-project", "Write",
     lambda sb: {"file_path": os.path.join(sb.project, "written.txt"), "content": "hello\n"},
     case_write_in_project),
]


# Run with the starter config as install.sh writes it.
STARTER_CASES = [
    ("starter-read-aws-credentials", "Read",
     lambda sb: {"file_path": os.path.join(sb.home, ".aws", "credentials")}, case_read_aws_credentials),
    ("starter-npm-test", "Bash", lambda sb: {"command": "npm test", "description": "e2e"}, case_npm_test),
    ("starter-git-status", "Bash", lambda sb: {"command": "git status", "description": "e2e"}, case_git_status),
]


def run_case(mock, sb, claude, case):
    """Runs one case in sandbox `sb`: (failure detail or None, claude stderr, debug log path)."""
    name, tool, make_input, check = case
    before = len(mock.tool_results)
    mock.script(tool, make_input(sb))
    debug = os.path.join(sb.root, "claude-debug-%s.log" % name)
    rc, out, err = sb.run_claude(claude, debug)
    results = mock.tool_results[before:]
    if len(results) != 1:
        detail = "expected one tool_result, got %d (claude exit %s, stdout %r)" % (len(results), rc, out[-500:])
    else:
        rec = transcript_record(sb, results[0]["tool_use_id"])
        try:
            detail = check(sb, results[0], rec)
        except Exception as e:  # a broken check is a failure of this case, not of the run
            detail = "the check itself failed: %r" % e
        if VERBOSE:
            print("    %s: tool_result %r\n    transcript %r" % (name, results[0], rec))
    return detail, err, debug


def hook_lines(debug_file):
    try:
        with open(debug_file, errors="replace") as f:
            noise = ("hooks module", "telemetry", "checkForNewResponses", "native host", "Registered ")
            return [l.rstrip() for l in f if "hook" in l.lower() and not any(n in l for n in noise)][-30:]
    except OSError:
        return ["(no debug log)"]


def diagnose(mock, claude, warden, case, starter):
    """Reruns a failed case in a fresh sandbox with the tee wrapper in warden's place; prints what it saw."""
    sb = Sandbox(mock.url, warden, starter)
    log = os.path.join(sb.root, "hook-io.log")
    write_settings(sb.home, "%s --agent claude" % shlex.quote(tee_wrapper(warden, log)))
    try:
        detail, err, debug = run_case(mock, sb, claude, case)
        print("    rerun with the logging wrapper: %s" % (detail or "passed"))
        print("    claude stderr: %s" % (err.strip() or "(empty)"))
        try:
            with open(log) as f:
                print("    hook input/output:\n" + "".join("      " + l for l in f))
        except OSError:
            print("    hook input/output: (the hook was not called)")
        print("    claude debug log, hook lines:\n" + "\n".join("      " + l for l in hook_lines(debug)))
    finally:
        sb.cleanup()


def run_group(mock, claude, warden, cases, starter, keep):
    """Runs `cases` in one sandbox (the starter config's, with `starter`): (passed, failed)."""
    passed = failed = 0
    try:
        sb = Sandbox(mock.url, warden, starter)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print("the sandbox could not be set up:\n    " + str(e).replace("\n", "\n    "))
        for case in cases:
            print("FAIL %s: not run (no sandbox)" % case[0])
        return 0, len(cases)
    try:
        for case in cases:
            t = time.time()
            detail, err, debug = run_case(mock, sb, claude, case)
            if VERBOSE:
                print("    %s took %.1f s" % (case[0], time.time() - t))
            if detail is None:
                passed += 1
                print("PASS %s" % case[0], flush=True)
            else:
                failed += 1
                print("FAIL %s: %s" % (case[0], detail), flush=True)
                print("    claude stderr: %s" % (err.strip() or "(empty)"))
                print("    claude debug log, hook lines:\n" + "\n".join("      " + l for l in hook_lines(debug)))
                try:
                    diagnose(mock, claude, warden, case, starter)
                except Exception as e:
                    print("    (the diagnostic rerun failed: %r)" % e)
    finally:
        if keep:
            print("sandbox kept: %s" % sb.root, file=sys.stderr)
        else:
            sb.cleanup()
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--claude", required=True, help="the claude executable")
    ap.add_argument("--warden", required=True, help="absolute path of the warden executable")
    ap.add_argument("--keep", action="store_true", help="keep the sandbox directories")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every tool_result")
    args = ap.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    warden = os.path.abspath(args.warden)
    claude = shutil.which(args.claude) or args.claude

    mock = MockAnthropic().start()
    passed = failed = 0
    started = time.time()
    try:
        for cases, starter in ((CASES, False), (STARTER_CASES, True)):
            p, f = run_group(mock, claude, warden, cases, starter, args.keep)
            passed += p
            failed += f
    finally:
        mock.stop()
    print("(%.1f s in all; %d requests to the mock)" % (time.time() - started, len(mock.requests)))
    return tally(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
