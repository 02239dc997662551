//! The table of subcommands and their flags, the one list the CLI dispatches, documents and parses from.

use super::{Action, Changes, Flag, Operands, Spec, Sub};

/// The hook's `--agent`: the dialect to answer in.
const DIALECT: Flag = Flag {
    long: "--agent",
    value: Some("NAME"),
    choices: &["hermes", "claude", "codex", "gemini", "copilot", "opencode", "native"],
    help: "output dialect: hermes, claude, codex, gemini, copilot, opencode or native\n(default: the one the payload's shape names)",
};

/// The hook's `--on-ask`: what to do with an ask.
const ON_ASK: Flag = Flag {
    long: "--on-ask",
    value: Some("WHAT"),
    choices: &["ask", "block"],
    help: "`ask` (default) or `block`: block what would be asked, for\nagents that cannot ask (Hermes before `approve` support)",
};

const CWD: Flag = Flag {
    long: "--cwd",
    value: Some("DIR"),
    choices: &[],
    help: "the working directory whose policy files apply (default: the current one)",
};

/// `install`, `uninstall` and `doctor`'s `--agent`: which agents.
const AGENTS: Flag = Flag {
    long: "--agent",
    value: Some("NAME"),
    choices: &["hermes", "claude", "codex", "gemini", "copilot", "opencode", "all"],
    help:
        "hermes, claude, codex, gemini, copilot, opencode, or all of them (default: the agents found here)",
};

const DRY_RUN: Flag = Flag {
    long: "--dry-run",
    value: None,
    choices: &[],
    help: "say what would change, change nothing",
};

const WARDEN: Flag = Flag {
    long: "--warden",
    value: Some("PATH"),
    choices: &[],
    help: "the warden binary to register (default: this one)",
};

static HOOK_FLAGS: &[Flag] = &[DIALECT, ON_ASK];

static CHECK_FLAGS: &[Flag] = &[
    Flag {
        long: "--batch",
        value: None,
        choices: &[],
        help: "read JSON Lines, one payload per line; write one verdict line per\npayload, in order (blank lines are skipped)",
    },
    DIALECT,
    ON_ASK,
];

static WHY_FLAGS: &[Flag] = &[
    Flag {
        long: "--tool",
        value: Some("NAME"),
        choices: &[],
        help: "the tool called (default: terminal with --cmd, write_file with --path)",
    },
    Flag {
        long: "--cmd",
        value: Some("COMMAND"),
        choices: &[],
        help: "the command line a shell tool runs",
    },
    Flag {
        long: "--path",
        value: Some("PATH"),
        choices: &[],
        help: "the file a file tool works on",
    },
    CWD,
    Flag {
        long: "--workdir",
        value: Some("DIR"),
        choices: &[],
        help: "the tool's `workdir`, as the model would give it: where the\ntool runs, as after `cd DIR` from --cwd",
    },
    Flag {
        long: "--agent",
        value: Some("NAME"),
        choices: &["hermes", "claude", "codex", "native"],
        help: "whose output line to show (default: hermes)",
    },
    Flag {
        long: "--on-ask",
        value: Some("WHAT"),
        choices: &["ask", "block"],
        help: "as the hook's --on-ask: `block` turns an ask into a block",
    },
    Flag {
        long: "--json",
        value: None,
        choices: &[],
        help: "one JSON object: the call, its files, every stage, the verdict,\nthe safer way and the agent's line",
    },
];

static RULES_FLAGS: &[Flag] = &[
    Flag {
        long: "--layer",
        value: Some("LAYER"),
        choices: &["hardline", "sudo-guard", "user", "dangerous"],
        help: "only the rules of one layer",
    },
    Flag {
        long: "--group",
        value: Some("GROUP"),
        choices: &[],
        help: "only the rules whose id starts with GROUP. (fs, git, net, files, ...)",
    },
    Flag {
        long: "--json",
        value: None,
        choices: &[],
        help: "one JSON object per rule, one per line",
    },
    Flag {
        long: "--markdown",
        value: None,
        choices: &[],
        help: "the built-in rules as the page docs/rules.md",
    },
    CWD,
];

static TRUST_FLAGS: &[Flag] = &[
    Flag {
        long: "--tool",
        value: Some("TOOL"),
        choices: &[],
        help: "add: the tool the rule is for (default `*`: every tool)",
    },
    Flag {
        long: "--pattern",
        value: Some("GLOB"),
        choices: &[],
        help: "add: an fnmatch glob over the command or path (default `*`)",
    },
    Flag {
        long: "--decision",
        value: Some("WHAT"),
        choices: &["allow", "ask", "deny"],
        help: "add: allow, ask or deny",
    },
    Flag {
        long: "--scope",
        value: Some("PATH"),
        choices: &[],
        help: "add: only under this path prefix (default: everywhere)",
    },
    Flag {
        long: "--priority",
        value: Some("N"),
        choices: &[],
        help: "add: higher wins (default 50); on a tie deny > ask > allow",
    },
    Flag {
        long: "--id",
        value: Some("ID"),
        choices: &[],
        help: "add: the rule's id (default trust-N); show, remove: which rule",
    },
];

static AUDIT_FLAGS: &[Flag] = &[
    Flag {
        long: "--lines",
        value: Some("N"),
        choices: &[],
        help: "tail: how many of the latest decisions to show (default 20)",
    },
    Flag {
        long: "--since",
        value: Some("WHEN"),
        choices: &[],
        help: "only decisions since WHEN: a duration back from now (30m, 24h,\n7d, 2w) or a UTC date or time (2026-11-01, 2026-11-01T09:30:00Z)",
    },
    Flag {
        long: "--json",
        value: None,
        choices: &[],
        help: "tail: the log's own lines; stats: one JSON object",
    },
    Flag {
        long: "--file",
        value: Some("PATH"),
        choices: &[],
        help: "read this log instead of the one your config names",
    },
    CWD,
];

static CWD_ONLY: &[Flag] = &[CWD];

static ALLOW_ONCE_FLAGS: &[Flag] = &[Flag {
    long: "--cwd",
    value: Some("DIR"),
    choices: &[],
    help: "the directory the agent worked in, when warden's state directory is\nmoved by XDG_STATE_HOME (default: the current one)",
}];

static INSTALL_FLAGS: &[Flag] = &[
    AGENTS,
    DRY_RUN,
    Flag {
        long: "--accept-hooks",
        value: None,
        choices: &[],
        help: "record your consent to Hermes running warden's hook\n(otherwise Hermes asks once, at its next run in a terminal)",
    },
    WARDEN,
];

static UNINSTALL_FLAGS: &[Flag] = &[
    AGENTS,
    DRY_RUN,
    WARDEN,
    Flag {
        long: "--purge",
        value: None,
        choices: &[],
        help: "also remove warden's config, cache, ledger, audit log and the\nbackups it made of the agents' files, after listing them (asks first)",
    },
    Flag {
        long: "--yes",
        value: None,
        choices: &[],
        help: "--purge without asking (for scripts; a terminal is asked)",
    },
];

static DOCTOR_FLAGS: &[Flag] = &[AGENTS, CWD];

static PROJECT_FLAGS: &[Flag] = &[Flag {
    long: "--cwd",
    value: Some("DIR"),
    choices: &[],
    help: "trust: where FILE is relative to, and whose project files to trust\nwhen none is named; list: whose project files to show (default: the\ncurrent directory)",
}];

/// A subcommand without action words.
const NO_ACTIONS: &[Action] = &[];

/// Every subcommand. The first is the hook, which also runs when no
/// subcommand is named.
pub static SUBCOMMANDS: &[Spec] = &[
    Spec {
        sub: Sub::Hook,
        name: "hook",
        summary: "judge one tool call: payload on stdin, verdict on stdout (the default)",
        usage: "[OPTIONS] < payload.json",
        about: "Reads one hook payload (JSON) on stdin and writes one verdict line (JSON) on\n\
                stdout. Without --agent the dialect follows the payload: Hermes payloads get\n\
                Hermes' format, Claude Code's get Claude's, Codex's get Codex's. Anything it\n\
                cannot read is blocked, with the reason on stderr.",
        flags: HOOK_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Check,
        name: "check",
        summary:
            "judge payloads as the hook would; --batch: JSON Lines in, one verdict per line out",
        usage: "[--batch] [OPTIONS] < payloads.jsonl",
        about: "Without --batch, the same as the hook. With --batch, reads one payload per\n\
                line (JSON Lines) and writes, for each, the line the hook would print, in\n\
                order, in one process: the policy is loaded once per working directory. A\n\
                line that cannot be read gets the hook's block for it and a message on\n\
                stderr naming the line; blank lines are skipped.",
        flags: CHECK_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Why,
        name: "why",
        summary: "show every stage's view of one call: sources, matching rules, the verdict",
        usage: "[--tool NAME] (--cmd COMMAND | --path PATH) [--json] [OPTIONS]",
        about: "Decides one call as the hook would and shows how: the policy files with their\n\
                tiers, the cache, every layer in order with what it saw (rules with file and\n\
                line), post-processing, the verdict, the safer way to the same goal where the\n\
                deciding rule names one, and the line the agent would get.",
        flags: WHY_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Rules,
        name: "rules",
        summary: "list every rule, built-in and yours: id, layer, decision, source, examples, safer way",
        usage: "list [--layer LAYER] [--group GROUP] [--json | --markdown] [--cwd DIR] | sinks",
        about: "Lists the rules that decide calls in DIR (default: the current directory):\n\
                the built-in rules with their file, and your rules from every policy file\n\
                with file and line, each with its layer, decision, what it catches, how many\n\
                examples (must match / must not) prove it, and the safer way to the same goal\n\
                where there is one. --markdown prints the\n\
                built-in rules as docs/rules.md. sinks prints, as a Markdown table, every\n\
                option, setting and subcommand known to hand code to a program, with the\n\
                language warden judges that code in.",
        flags: RULES_FLAGS,
        actions: &[
            Action {
                name: "list",
                changes: Changes::Nothing,
            },
            Action {
                name: "sinks",
                changes: Changes::Nothing,
            },
        ],
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Test,
        name: "test",
        summary: "run every rule's examples and your case files (JSONL); exit 1 on a failure",
        usage: "[FILE...] [--cwd DIR]",
        about: "Runs every built-in rule's examples through the whole engine (each hit must be\n\
                decided by its rule, no miss may be), your rules' examples, and each case\n\
                FILE: JSON Lines of {\"command\": ..., \"expect\": ...} (a terminal call in DIR)\n\
                or {\"payload\": {...}, \"expect\": ...}, judged with the policy that applies\n\
                in DIR (default: the current directory). An expected ask is also met by a\n\
                block. Prints the failures and a count; exits 1 if anything failed.",
        flags: CWD_ONLY,
        actions: NO_ACTIONS,
        operands: Operands::FilesRead,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Trust,
        name: "trust",
        summary: "list, show, add, remove or start the trust rules of ~/.hermes/trust.json",
        usage: "list | show --id ID | add --decision D [--tool T] [--pattern GLOB] [--scope PATH] [--priority N] [--id ID] | remove --id ID | init",
        about: "Reads and edits Hermes' trust rules (~/.hermes/trust.json, or under\n\
                HERMES_HOME), one of the policy sources warden reads: a JSON array of\n\
                {id, tool, pattern, scope, decision, priority}. add, remove and init change\n\
                the policy: only a person at a terminal can run them, never an agent's tool\n\
                call. init writes a small read-only starter set into an empty file.",
        flags: TRUST_FLAGS,
        actions: &[
            Action {
                name: "list",
                changes: Changes::Nothing,
            },
            Action {
                name: "show",
                changes: Changes::Nothing,
            },
            Action {
                name: "add",
                changes: Changes::State,
            },
            Action {
                name: "remove",
                changes: Changes::State,
            },
            Action {
                name: "init",
                changes: Changes::State,
            },
        ],
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Audit,
        name: "audit",
        summary: "read the audit log: the latest decisions, or counts by rule and decision",
        usage: "tail [--lines N] [--since WHEN] [--json] | stats [--since WHEN] [--json]  [--file PATH] [--cwd DIR]",
        about: "Reads the log the hook appends to when your config has `audit:` (one JSON\n\
                line per decision, secrets redacted; see docs/configuration.md). tail shows the latest\n\
                decisions; stats counts a period by decision, layer, rule and tool: the\n\
                rules that ask most are the ones worth an allow rule, the blocks are what\n\
                the agent tried. Rotated files (PATH.1 ...) are read too.",
        flags: AUDIT_FLAGS,
        actions: &[
            Action {
                name: "tail",
                changes: Changes::Nothing,
            },
            Action {
                name: "stats",
                changes: Changes::Nothing,
            },
        ],
        operands: Operands::None,
        reads: &["--file"],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Project,
        name: "project",
        summary: "trust a project's .warden.yaml so its allow rules apply; list or forget trusted files",
        usage: "trust [FILE...] | list | forget FILE...  [--cwd DIR]",
        about: "A project's own policy file (.warden.yaml, .hermes/permissions.yaml) arrives\n\
                with git clone or an archive, so by itself it only tightens: its deny and ask\n\
                rules apply, its allow rules and the settings that loosen (mode, on_error,\n\
                exempt, unattended, auto_approve_up_to) do not. trust records the file's path\n\
                and SHA-256 in warden's state directory, and from then on all of it applies,\n\
                until the file changes. With no FILE it trusts the project files of DIR\n\
                itself. A file someone other than you or root owns, or that lies where others\n\
                can write, is refused. trust needs a person at a terminal, never an agent's\n\
                tool call; list shows the trusted files and the standing of those that apply\n\
                in DIR; forget ends a file's trust.",
        flags: PROJECT_FLAGS,
        actions: &[
            Action {
                name: "trust",
                changes: Changes::State,
            },
            Action {
                name: "list",
                changes: Changes::Nothing,
            },
            Action {
                name: "forget",
                changes: Changes::State,
            },
        ],
        operands: Operands::FilesRead,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Lint,
        name: "lint",
        summary: "check every policy file and every rule's examples; exit 1 on problems",
        usage: "[--cwd DIR]",
        about: "Reads every policy file that applies in DIR (default: the current directory),\n\
                reports what is wrong with file and line, and runs every rule's examples:\n\
                hits must match and misses must not. Exits 1 if anything is wrong.",
        flags: CWD_ONLY,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
    Spec {
        sub: Sub::Bless,
        name: "bless",
        summary: "accept the current policy files into the integrity ledger (from a terminal)",
        usage: "[--cwd DIR]",
        about: "Records the policy files that apply in DIR as trusted: protected rules that\n\
                were removed or changed stop being enforced from the ledger. Only a person\n\
                at a terminal can do this; an agent's tool call cannot.",
        flags: CWD_ONLY,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::State,
    },
    Spec {
        sub: Sub::AllowOnce,
        name: "allow-once",
        summary: "let one call an agent could not ask about run once (from a terminal)",
        usage: "CODE [--cwd DIR]",
        about: "Agents that cannot ask (Hermes 0.19, Codex) get an ask as a block, and the block\n\
                carries a code. Run `warden allow-once CODE` in your own terminal: it shows the\n\
                call the code names (command, directory, agent) and approves it, and the agent's\n\
                next try of that same call (same command, directory and session) within 5\n\
                minutes runs, once; then the code is spent. A code can be approved for 10\n\
                minutes after the block. Only a person at a terminal can approve; an agent's\n\
                tool call cannot. Each use is in the audit log (layer allow-once).",
        flags: ALLOW_ONCE_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::Words,
        reads: &[],
        changes: Changes::State,
    },
    Spec {
        sub: Sub::Install,
        name: "install",
        summary: "register warden with each agent found here (or those --agent names)",
        usage: "[--agent hermes|claude|codex|gemini|copilot|opencode|all] [--dry-run] [--accept-hooks]",
        about: "Registers this warden binary, by its absolute path, in each agent's own\n\
                configuration: Hermes' config.yaml (a pre_tool_call list entry, with the flags\n\
                the installed Hermes needs, asked of Hermes itself), Claude Code's\n\
                settings.json, Codex's hooks.json and its trust record (through codex\n\
                app-server). Running it again changes nothing; each changed file is backed\n\
                up first and replaced atomically, keeping comments, order and other keys.\n\
                It also fixes hook lists Hermes skips (a mapping keyed by tool, hooks in\n\
                cli-config.yaml) and says what it changed and what is left for you to do.",
        flags: INSTALL_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::StateUnless("--dry-run"),
    },
    Spec {
        sub: Sub::Uninstall,
        name: "uninstall",
        summary: "remove what install added from each agent's configuration (--purge: and warden's files)",
        usage: "[--agent hermes|claude|codex|gemini|copilot|opencode|all] [--dry-run] [--purge [--yes]]",
        about: "Removes warden's hook entries (and Hermes consent records for them, and\n\
                Codex's trust record with the empty tables Codex leaves) from each agent's\n\
                configuration, leaving everything else as it was. A file that held nothing\n\
                but warden's entries is removed; any other changed file is backed up first.\n\
                With --purge, it then lists and removes warden's own files too: the config\n\
                directory, the cache, the state directory (ledger, trust records, audit log),\n\
                an audit log kept elsewhere, and the backups beside the agents' files. It\n\
                asks first on a terminal; elsewhere it needs --yes. The binary stays.",
        flags: UNINSTALL_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::StateUnless("--dry-run"),
    },
    Spec {
        sub: Sub::Doctor,
        name: "doctor",
        summary: "check that warden really guards each agent; exit 1 when it does not",
        usage: "[--agent hermes|claude|codex|gemini|copilot|opencode|all] [--cwd DIR]",
        about: "Checks, one line each with the fix: warden on PATH; for each agent, that warden\n\
                is registered in the shape the agent reads, consented to (Hermes) or trusted\n\
                (Codex), with the flags that agent's version needs, and that the registered\n\
                command line refuses `rm -rf /` and has no objection to `git status`; that the\n\
                policy files are valid, the cache fresh and the ledger consistent.",
        flags: DOCTOR_FLAGS,
        actions: NO_ACTIONS,
        operands: Operands::None,
        reads: &[],
        changes: Changes::Nothing,
    },
];
