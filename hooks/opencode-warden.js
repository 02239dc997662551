// warden's plugin for OpenCode: every tool call is judged by `warden --agent opencode` before it runs.
//
// `warden install --agent opencode` writes this file to ~/.config/opencode/plugin/warden.js with
// the absolute path of warden in WARDEN; uninstall removes it (it recognises the file by its
// first line). Copied by hand, it runs the `warden` found on PATH.
//
// What OpenCode does with a plugin's hook: a thrown Error fails the tool call, and its message
// is the tool's result the model reads; a hook that returns lets the call go on to OpenCode's own
// permission checks. OpenCode waits for the hook without a time limit, so this plugin sets one.
// Whatever keeps warden from answering (no warden, a crash, an exit code, an answer this file
// does not know, no answer in time) blocks the call and says why: an unguarded call must never
// pass for a judged one.
//
// OpenCode loads a plugin file only if every export is a function, and skips a file that fails
// without a word: keep exactly one export here.

const WARDEN = "warden";
const TIMEOUT_MS = 10000;

// What the model is told for warden's answer, or null for `{}` (no objection). A block in the
// form warden writes when it cannot tell which agent called (`decision`/`reason`) counts too.
function blockMessage(answer) {
  const object = answer !== null && typeof answer === "object" && !Array.isArray(answer);
  if (object && Object.keys(answer).length === 0) return null;
  if (object && answer.action === "block" && typeof answer.message === "string") {
    return answer.message;
  }
  if (object && answer.decision === "block" && typeof answer.reason === "string") {
    return answer.reason;
  }
  const shown = JSON.stringify(answer).slice(0, 300);
  return `Blocked: warden's answer is neither a block nor \`{}\` (${shown}).`;
}

async function askWarden(payload, cwd) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  let proc;
  const answer = (async () => {
    proc = Bun.spawn([WARDEN, "--agent", "opencode"], {
      cwd,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    proc.stdin.write(JSON.stringify(payload));
    proc.stdin.end();
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) {
      const said = err.trim().slice(0, 300);
      throw new Error(`warden exited with ${code}${said ? `: ${said}` : ""}`);
    }
    try {
      return JSON.parse(out);
    } catch {
      throw new Error(`warden's answer is not JSON: ${out.trim().slice(0, 300)}`);
    }
  })();
  // Past the time limit the answer is dropped; its later failure is no one's to handle.
  answer.catch(() => {});
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
    if (proc && proc.exitCode === null) proc.kill(9);
  }
}

export const WardenGuard = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    // The session's directory; a shell call's `workdir` stays in tool_input, and warden
    // resolves it against this one.
    const payload = {
      hook_event_name: "tool.execute.before",
      tool_name: input?.tool,
      tool_input: output?.args ?? {},
      session_id: input?.sessionID,
      call_id: input?.callID,
      cwd: directory,
    };
    let answer;
    try {
      answer = await askWarden(payload, directory);
    } catch (e) {
      throw new Error(`Blocked: warden could not check this call (${e?.message ?? e}).`);
    }
    const message = blockMessage(answer);
    if (message !== null) throw new Error(message);
  },
});
