//! The stages in their order ([`STAGES`]) and the layers' functions: each looks at the call's context and may decide.

use std::borrow::Cow;

use once_cell::sync::Lazy;

use super::{fallback, files, post, user, Context, Note, Stage, Step};
use crate::config::model::{Mode, OnError};
use crate::config::policy::{haystack, Subjects};
use crate::rules::{self, Hit, Rule, RuleSet};
use crate::shell::{Analysis, Command};
use crate::verdict::{Decision, Layer, Reason, Verdict};

use crate::rules::{DANGEROUS_SET as DANGEROUS, HARDLINE_SET as HARDLINE};

static SUDO_GUARD: Lazy<RuleSet> = Lazy::new(|| RuleSet::new(rules::sudo_guard()));

/// The order of the decision. The first layer with an opinion decides;
/// post-processing then applies what the environment says about asks.
pub static STAGES: &[Stage] = &[
    Stage {
        name: "hardline",
        decides: "block",
        catches: "the floor nothing can lift: writes by any tool or shell spelling to SSH keys, cloud and tool credentials, GnuPG, Hermes' keys, sudoers, the account files, boot and service files, the Docker socket, block devices, the guard's own files and the directories that hold them (also when unpacked, cloned, hard-linked, renamed or patched over), or outside `HERMES_WRITE_SAFE_ROOT` (`files.*`, see [Files](files.md)); then `hardline.*`: `rm -rf` of `/`, system directories or home; `mkfs`, `dd`, wipes, partition-table rewrites (`parted rm|mklabel`, `sfdisk`) and `cryptsetup luksFormat|erase` of any device under `/dev`; fork bombs; `kill -1`; shutdown and reboot in their spellings (`shutdown`, `init 0`, `telinit 6`, `systemctl poweroff`, ...); recursive ownership or permission changes of `/`; moving `/`, a system directory or a home away; reverse shells; secrets sent off the machine (`net.upload-secret`, `net.pipe-secret-upload`, `net.remote-copy-secret`, `net.send-secret`: a credential file uploaded by curl, wget or ab, piped or redirected into a socket or `openssl s_client`, copied to a remote host, sent through ssh or socat; and, followed through pipes, here-strings, `$( )`, backquotes and files written earlier in the line, `net.send-environment`: the whole environment (`env`, `printenv`, `set`, `export -p`, `/proc/*/environ`) sent anywhere, `net.secret-in-request`: a secret file's content put into a request or socket, `net.staged-secret-upload`: a temp file filled with a secret then sent, `net.share-secret`: a secret file gisted, mailed or copied to cloud storage, `net.secret-in-dns`: a secret in a host name looked up, `net.push-secret`: a secret added to git then pushed, `net.script-sends-secret`: interpreter code that reads a secret and opens a connection, `net.send-token`: a credential variable or CLI token in a raw socket, mail or DNS name, or a service's token sent to another host; a token in a header or `-u` is its use and allowed); switching the agent's guard off or moving it (`HERMES_YOLO_MODE=1`; `hermes config set` of a key that reaches approvals, hooks, allow lists, security, the terminal or the environment; an agent started with approvals or hooks off, such as `hermes --yolo`, `codex -a never` or `claude --dangerously-skip-permissions`; `XDG_CONFIG_HOME`, `HERMES_HOME`, `CODEX_HOME` and the like given to an agent, exported or written into a start-up file; removing warden's binary; and warden's own subcommands that change its state, read as warden reads its arguments: `bless`, `install` and `uninstall` without `--dry-run`, `trust add|remove|init`, `project trust|forget`, a subcommand this warden does not know; the read-only ones, `why`, `rules`, `test`, `lint`, `doctor`, `audit`, `check`, `trust list|show`, `project list`, help and version, run, their arguments being data); remote code from insecure or look-alike sources run by a shell; interpreter one-liners that do any of these; decoded payloads that run a destructive command",
        after_layers: false,
        run: hardline,
    },
    Stage {
        name: "input",
        decides: "block (`input.limit-exceeded`)",
        catches: "a command past the analysis limits: 1 MiB of text, 64 levels of quote/group/substitution nesting, 12 levels of nested evaluation (`bash -c` inside `eval` inside a function inside `xargs` ...), 10,000 simple commands, 32 stacked wrappers, 64 other readings of wrappers' options (16 for one wrapper), 64 brace expansions in a word, 1 MiB per expanded word and 16 MiB of expansion in all. The hardline still sees what was analysed up to the limit",
        after_layers: false,
        run: limits,
    },
    Stage {
        name: "sudo-guard",
        decides: "block",
        catches: "`sudo -S` (password on stdin) when `SUDO_PASSWORD` is not set in warden's environment: the agent would be guessing a password",
        after_layers: false,
        run: sudo_guard,
    },
    Stage {
        name: "config",
        decides: "block (`config.invalid`)",
        catches: "a policy file that cannot be read or is invalid, with `on_error: block` (the default). `on_error: ask` turns every allow into an ask instead (in post-processing), `on_error: allow` decides without the broken file",
        after_layers: false,
        run: config,
    },
    Stage {
        name: "user",
        decides: "block, ask or allow",
        catches: "your deny, ask and allow rules from every source ([Configuration](configuration.md)); all that match compete: highest priority wins (default 50), ties go deny > ask > allow, and managed rules beat everything else. The rules of a file that may only tighten (a project file you have not trusted, see [Who may loosen](configuration.md#who-may-loosen-the-guard)) do not compete: its allows do nothing, and its deny or ask replaces the winner only when stricter. A deny or ask on any command of a line decides for the line; an allow only when every command is allowed. A winning allow skips the layers below",
        after_layers: false,
        run: user_rules,
    },
    Stage {
        name: "dangerous",
        decides: "ask",
        catches: "writes to system files, shell start-up files, login items, crontabs, git hooks, env files, Hermes' settings, another Hermes profile, or outside the project (`files.*`); built-in rules for destructive but sometimes intended commands, e.g. `git reset --hard`, in the groups fs, git, system, containers, cloud, db, net (with `net.token-in-request`: a secret-named variable or CLI token in a request body or URL to a host warden cannot vouch for, and `net.lookalike-host`: a URL whose host passes for another, in Unicode, Punycode or percent escapes), exec, windows, admin; last `exec.command-in-argument`: a text handed to a program warden has no model of (an option, `key=CMD`, the rest of its arguments, a `!CMD` input line, a file or build file the line wrote) that the floor would refuse on its own; plus the custom-patterns plugin's `patterns`; then reads of private keys, credentials, env files, browser profiles and password hashes, and those files (or sudoers, account and guard files) given to a program warden has no model of or to an editor (`files.*`). Categories named in Hermes' `command_allowlist` are skipped, and yolo lifts the rest",
        after_layers: false,
        run: dangerous,
    },
    Stage {
        name: "mode",
        decides: "allow, ask or block",
        catches: "for calls no rule named: `autonomous` allows, `cautious` asks for file writes and unknown tools, `supervised` asks for everything, `plan` blocks all but read-only tools and commands",
        after_layers: false,
        run: mode,
    },
    Stage {
        name: "threshold",
        decides: "ask",
        catches: "only with `approvals.auto_approve_up_to` set: a call whose risk (low: read-only tools and unflagged commands; medium: file writes and unknown tools; high: flagged commands) is above it asks",
        after_layers: false,
        run: threshold,
    },
    Stage {
        name: "default",
        decides: "allow",
        catches: "nothing above decided",
        after_layers: false,
        run: default,
    },
    Stage {
        name: "post-processing",
        decides: "changes the verdict",
        catches: "whoever decided: **yolo** (`approvals.mode: off` in your own Hermes config; never `HERMES_YOLO_MODE`, which the agent could have set) turns an ask from the dangerous, mode or threshold layer into an allow, never a block or your own ask rule; **`on_error: ask`** turns an allow into an ask while a policy file is broken; with **no human present** (`HERMES_CRON_SESSION=1`, which Hermes sets for cron jobs, or `WARDEN_UNATTENDED`) an ask becomes what `approvals.cron_mode` / `single_query_mode` / `unattended_mode` says (`deny`, the default, blocks; `approve` allows, except your own ask rules, which block); and **`--on-ask block`** turns any remaining ask into a block",
        after_layers: true,
        run: post::finish,
    },
];

/// A stage that passes. What a stage saw is read only when explaining, so
/// otherwise no note is kept (each would cost an allocation per call).
pub(super) fn pass(cx: &Context<'_>, note: impl Into<Note>) -> Step {
    if cx.explaining {
        Step::pass(note)
    } else {
        Step::default()
    }
}

/// A stage that decides; its note is kept only when explaining.
pub(super) fn decide(cx: &Context<'_>, verdict: Verdict, note: impl Into<Note>) -> Step {
    if cx.explaining {
        Step::decide(verdict, note)
    } else {
        Step {
            verdict: Some(verdict),
            notes: Vec::new(),
        }
    }
}

/// Adds a fixed note, only when explaining.
pub(super) fn quiet_push(cx: &Context<'_>, notes: &mut Vec<Note>, note: &'static str) {
    if cx.explaining {
        notes.push(note.into());
    }
}

fn hardline(cx: &mut Context<'_>) -> Step {
    if let Some((touched, rule)) = files::first_hit(&cx.touched, &cx.around, Decision::Block, &[]) {
        let verdict = files::verdict(touched, rule, Layer::Hardline);
        let note = cx.note(|| path_note(touched, rule.id).into_owned());
        return decide(cx, verdict, note);
    }
    let Some(analysis) = cx.analysis else {
        return pass(cx, cx.note(|| files_note(cx)));
    };
    match HARDLINE.first_match(analysis) {
        Some(hit) => built_in(cx, &hit, Layer::Hardline),
        None => pass(cx, "no match"),
    }
}

fn limits(cx: &mut Context<'_>) -> Step {
    match cx.analysis.and_then(|a| a.limit.as_ref()) {
        Some(limit) => decide(
            cx,
            Verdict::input_block("input.limit-exceeded", Reason::Limit(limit.clone())),
            limit.clone(),
        ),
        None => pass(cx, "within the limits"),
    }
}

fn sudo_guard(cx: &mut Context<'_>) -> Step {
    let Some(analysis) = cx.analysis else {
        return pass(cx, "not a command line");
    };
    if cx.options.sudo_password_set {
        return pass(cx, "off: SUDO_PASSWORD is set");
    }
    // The guard's rules read the options given to sudo: a line that runs
    // no sudo has none, and the rule set's walk is not worth its cost.
    if !analysis.commands.iter().any(rules::runs_sudo) {
        debug_assert!(SUDO_GUARD.first_match(analysis).is_none());
        return pass(cx, "no match");
    }
    match SUDO_GUARD.first_match(analysis) {
        Some(hit) => built_in(cx, &hit, Layer::SudoGuard),
        None => pass(cx, "no match"),
    }
}

fn config(cx: &mut Context<'_>) -> Step {
    let policy = cx.policy;
    if !policy.broken {
        return pass(cx, "every policy file is usable");
    }
    let on_error = policy.settings.on_error.unwrap_or(OnError::Block);
    let mut notes: Vec<Note> = policy.problems.iter().cloned().map(Note::from).collect();
    notes.push(format!("on_error: {on_error:?}").to_lowercase().into());
    let verdict = (on_error == OnError::Block).then(|| {
        Verdict::new(
            Decision::Block,
            Layer::Config,
            Some("config.invalid".into()),
            "",
            Reason::PolicyUnreadable {
                problem: first_problem(cx),
            },
        )
    });
    Step { verdict, notes }
}

/// The problem a policy verdict names (all of them go to stderr).
pub(super) fn first_problem(cx: &Context<'_>) -> String {
    cx.policy
        .problems
        .first()
        .map_or("see stderr", String::as_str)
        .to_string()
}

fn user_rules(cx: &mut Context<'_>) -> Step {
    let policy = cx.policy;
    // With no user rules there is nothing to match, and building the
    // subjects copies the command several times (a megabyte, at worst).
    if policy.is_empty() {
        return pass(cx, "no user rule matches");
    }
    let home = cx.options.home.as_deref();
    let files = cx.touched.iter().flat_map(|t| t.resolution.forms());
    // Most calls contain no rule's literal: the subjects are made only when
    // a rule may match, or to explain.
    if cx.explaining || policy.may_match(&haystack(cx.call, cx.analysis, home, files)) {
        let mut subjects = Subjects::of(cx.call, cx.analysis, home);
        subjects.files = files::subjects(&cx.touched);
        cx.user = user::decide(policy, subjects);
    }
    let mut notes: Vec<Note> = if cx.explaining {
        let lines = user::describe_matches(policy, &cx.user);
        lines.into_iter().map(Note::from).collect()
    } else {
        Vec::new()
    };
    if cx.user.matches.is_empty() {
        quiet_push(cx, &mut notes, "no user rule matches");
    }
    let Some(won) = &cx.user.decision else {
        if !cx.user.matches.is_empty() {
            notes.push("no winner: not every segment is allowed".into());
        }
        return Step {
            verdict: None,
            notes,
        };
    };
    notes.push(cx.note(|| format!("winner: {} ({})", won.rule.id, won.decision.as_str())));
    cx.user_allowed = won.decision == Decision::Allow;
    let kind = match won.decision {
        Decision::Block => "deny",
        Decision::Ask => "ask",
        Decision::Allow => "allow",
    };
    let verdict = Verdict::new(
        won.decision,
        Layer::User,
        Some(won.rule.id.clone()),
        won.text.clone(),
        Reason::UserRule {
            kind,
            rule: won.rule.describe(),
            description: won.rule.description.clone(),
            origin: policy.origin(&won.rule),
        },
    )
    .with_safer(won.rule.suggest.clone().map(Cow::Owned));
    Step {
        verdict: Some(verdict),
        notes,
    }
}

fn dangerous(cx: &mut Context<'_>) -> Step {
    // Where a write lands decides before what the command is; a secret
    // read comes after the rules that say where it is sent.
    if let Some(step) = path_danger(cx, true) {
        return step;
    }
    let Some(analysis) = cx.analysis else {
        return path_danger(cx, false).unwrap_or_else(|| pass(cx, cx.note(|| files_note(cx))));
    };
    let mut notes = Vec::new();
    let hit = built_in_danger(cx, analysis, &mut notes);
    if hit.is_none() && cx.user.patterns.is_empty() {
        if let Some(step) = path_danger(cx, false) {
            return step;
        }
    }
    let policy = cx.policy;
    let patterns = &cx.user.patterns;
    for rule in patterns {
        notes.push(cx.note(|| {
            let (describe, origin) = (rule.describe(), policy.origin(rule));
            format!("{} {describe} ({origin}) matches", rule.id)
        }));
    }
    cx.flagged = hit.is_some() || !patterns.is_empty();
    let command = cx.call.command().unwrap_or_default();
    let verdict = if !cx.flagged {
        quiet_push(cx, &mut notes, "no match");
        None
    } else if cx.user_allowed {
        quiet_push(cx, &mut notes, "skipped: a user allow rule won");
        None
    } else if cx.yolo() {
        quiet_push(
            cx,
            &mut notes,
            "skipped: yolo (HERMES_YOLO_MODE or approvals.mode: off)",
        );
        let what = match (&hit, patterns.first()) {
            (Some(hit), _) => format!("{} ({})", hit.rule.category, hit.rule.id),
            (None, Some(rule)) => format!("your pattern {}", rule.id),
            (None, None) => "a dangerous pattern".into(),
        };
        let reason = Reason::YoloLifted { what };
        cx.lifted = Some(Verdict::new(
            Decision::Allow,
            Layer::Default,
            None,
            command,
            reason,
        ));
        None
    } else if let Some(hit) = hit {
        Some(built_in_verdict(&hit, Layer::Dangerous))
    } else {
        patterns.first().map(|rule| {
            let reason = Reason::Pattern {
                rule: rule.describe(),
                description: rule.description.clone(),
                origin: policy.origin(rule),
            };
            Verdict::new(
                Decision::Ask,
                Layer::Dangerous,
                Some(rule.id.clone()),
                command,
                reason,
            )
            .with_safer(rule.suggest.clone().map(Cow::Owned))
        })
    };
    Step { verdict, notes }
}

/// The first built-in dangerous rule that matches, skipping categories the
/// user's `command_allowlist` exempts; an exempted first match leaves the
/// allow it earns in the context.
fn built_in_danger(
    cx: &mut Context<'_>,
    analysis: &Analysis,
    notes: &mut Vec<Note>,
) -> Option<Hit<'static>> {
    let exempt = &cx.policy.settings.exempt_categories;
    let exempted = |hit: &Hit<'_>| exempt.iter().any(|c| c == hit.rule.category);
    // Every match is wanted only to explain, or to skip the exempted ones.
    // A project delete asks unless the repository ignores what it deletes.
    let around = &cx.around;
    let excused = |rule: &Rule, cmd: &Command| super::ignored::excused(rule, cmd, around);
    if exempt.is_empty() && !cx.explaining {
        return DANGEROUS.first_match_excusing(analysis, &excused);
    }
    let all = DANGEROUS.all_matches_excusing(analysis, &excused);
    for hit in &all {
        let note = if exempted(hit) {
            " (exempted by command_allowlist)"
        } else {
            ""
        };
        notes.push(format!("{} matches `{}`{note}", hit.rule.id, hit.text).into());
    }
    if let Some(first) = all.first().filter(|first| exempted(first)) {
        let reason = Reason::Exempted {
            category: first.rule.category,
        };
        let text = first.text.clone();
        cx.lifted = Some(Verdict::new(
            Decision::Allow,
            Layer::Default,
            None,
            text,
            reason,
        ));
    }
    all.into_iter().find(|hit| !exempted(hit))
}

fn mode(cx: &mut Context<'_>) -> Step {
    let settings = &cx.policy.settings;
    // A tighten-only source's mode decides only where it is stricter.
    let (mode, (decision, why)) = std::iter::once(settings.mode.unwrap_or(Mode::Autonomous))
        .chain(settings.tightening_modes.iter().copied())
        .map(|mode| {
            (
                mode,
                fallback::mode_decision(mode, cx.call.kind, cx.analysis),
            )
        })
        .reduce(|best, next| if next.1 .0 > best.1 .0 { next } else { best })
        .unwrap_or((
            Mode::Autonomous,
            fallback::mode_decision(Mode::Autonomous, cx.call.kind, cx.analysis),
        ));
    let note = cx.note(|| format!("{why} ({} tool)", cx.call.kind.as_str()));
    if decision == Decision::Allow {
        return pass(cx, note);
    }
    let verdict = Verdict::new(
        decision,
        Layer::Mode,
        Some(format!("mode.{}", fallback::mode_name(mode))),
        call_text(cx),
        Reason::Unnamed { why: why.into() },
    );
    decide(cx, verdict, note)
}

fn threshold(cx: &mut Context<'_>) -> Step {
    let Some(limit) = cx.policy.settings.auto_approve_up_to else {
        return pass(cx, "off (approvals.auto_approve_up_to is not set)");
    };
    let risk = fallback::risk(cx.call.kind, cx.flagged);
    let note = cx.note(|| {
        let (risk, limit) = (fallback::risk_name(risk), fallback::risk_name(limit));
        format!("risk {risk}, auto-approved up to {limit}")
    });
    if risk <= limit {
        return pass(cx, note);
    }
    let verdict = Verdict::new(
        Decision::Ask,
        Layer::Threshold,
        Some("threshold.auto-approve".into()),
        call_text(cx),
        Reason::Risk {
            risk: fallback::risk_name(risk),
            limit: fallback::risk_name(limit),
        },
    );
    decide(cx, verdict, note)
}

fn default(cx: &mut Context<'_>) -> Step {
    if cx.verdict.is_some() {
        return pass(cx, "not reached");
    }
    decide(cx, no_match(cx), "nothing above decided: allow")
}

/// The allow for a call no layer decided: why something that matched was
/// lifted, or that nothing matched.
pub(super) fn no_match(cx: &Context<'_>) -> Verdict {
    if let Some(lifted) = &cx.lifted {
        return lifted.clone();
    }
    let tool = match cx.call.command() {
        Some(_) => None,
        None => Some(cx.call.tool.clone()),
    };
    Verdict::new(
        Decision::Allow,
        Layer::Default,
        None,
        "",
        Reason::NoMatch { tool },
    )
}

/// The call as a message quotes it when no rule matched a part of it.
fn call_text(cx: &Context<'_>) -> String {
    let call = cx.call;
    match (call.command(), &call.path) {
        (Some(command), _) => command.to_string(),
        (None, Some(path)) => format!("{} {path}", call.tool),
        (None, None) => call.tool.clone(),
    }
}

/// The dangerous layer's answer for the first of `touched` a path rule asks
/// about: the ask, or why it stands aside (a user allow, yolo).
fn path_danger(cx: &mut Context<'_>, writes: bool) -> Option<Step> {
    let exempt = &cx.policy.settings.exempt_categories;
    // A path given to a program warden has no model of is not known to be
    // written: it waits, like a read, for the rules that know the program.
    let unknown = Some(crate::rules::access::How::Unknown);
    let analysis = cx.analysis;
    let touched = cx.touched.iter().filter(|t| {
        (t.write && t.how != unknown) == writes && !files::appends_scanned_keys(t, analysis)
    });
    let (t, rule) = files::first_hit(touched, &cx.around, Decision::Ask, exempt)?;
    let (verdict, note) = (
        files::verdict(t, rule, Layer::Dangerous),
        cx.note(|| path_note(t, rule.id).into_owned()),
    );
    cx.flagged = true;
    if cx.user_allowed {
        return Some(pass(cx, "skipped: a user allow rule won"));
    }
    if cx.yolo() {
        let what = format!("{} ({})", rule.category, rule.id);
        let reason = Reason::YoloLifted { what };
        let lifted = Verdict::new(
            Decision::Allow,
            Layer::Default,
            None,
            verdict.subject,
            reason,
        );
        cx.lifted = Some(lifted);
        return Some(pass(
            cx,
            "skipped: yolo (HERMES_YOLO_MODE or approvals.mode: off)",
        ));
    }
    Some(decide(cx, verdict, note))
}

/// What a path rule matched, for `warden why`.
fn path_note(touched: &files::Touched, id: &str) -> Note {
    let r = &touched.resolution;
    let mut note = format!(
        "{id} matches {} {} (resolved: {}",
        if touched.write {
            "a write of"
        } else {
            "a read of"
        },
        touched.literal,
        r.path
    );
    if r.lexical != r.path {
        note.push_str(&format!(", written as {}", r.lexical));
    }
    if let Some(problem) = &r.problem {
        note.push_str(&format!("; unresolved: {problem}"));
    }
    note.push(')');
    note.into()
}

/// The files a call touches, for `warden why` when no path rule matched.
fn files_note(cx: &Context<'_>) -> String {
    if cx.touched.is_empty() {
        return "not a command line, and no file named".into();
    }
    let files: Vec<String> = cx
        .touched
        .iter()
        .map(|t| {
            format!(
                "{} {} -> {}",
                if t.write { "write" } else { "read" },
                t.literal,
                t.resolution.path
            )
        })
        .collect();
    format!("no path rule matches: {}", files.join(", "))
}

fn built_in(cx: &Context<'_>, hit: &Hit<'static>, layer: Layer) -> Step {
    decide(
        cx,
        built_in_verdict(hit, layer),
        cx.note(|| format!("{} matches `{}`", hit.rule.id, hit.text)),
    )
}

fn built_in_verdict(hit: &Hit<'static>, layer: Layer) -> Verdict {
    let rule = hit.rule;
    Verdict::new(
        rule.decision,
        layer,
        Some(rule.id.to_string()),
        hit.text.clone(),
        Reason::BuiltIn {
            category: rule.category,
            why: rule.reason,
            leads: hit
                .through
                .as_ref()
                .map(|t| t.leads.clone())
                .unwrap_or_default(),
        },
    )
    .with_safer(rules::safer(rule.id).map(Cow::Borrowed))
}
