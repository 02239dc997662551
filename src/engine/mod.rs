//! The decision: a tool call and the facts around it in, a [`Verdict`] out, by running the stages of [`STAGES`] in order; no I/O.
//!
//! [`STAGES`] is the one statement of the order: the layers, each a function
//! of the same shape (the call's `Context` in, a `Step` out: perhaps a
//! verdict, and what it saw), then post-processing, which may change the
//! verdict the first layer with an opinion gave. The layer table of docs/decisions.md
//! and `warden why` are both read from it.

mod fallback;
mod files;
mod ignored;
mod layers;
mod post;
mod reach;
mod user;

use std::borrow::Cow;
use std::sync::Arc;

use crate::config::policy::Policy;
use crate::payload::ToolCall;
use crate::resolve::Links;
use crate::rules::files::Around;
use crate::shell::{self, Analysis};
use crate::verdict::{Decision, Layer, Reason, Verdict};

pub(crate) use files::can_be_project;
pub use layers::STAGES;

/// Facts from outside the payload that a decision depends on. The caller
/// reads them (environment, policy files, flags); the engine does no I/O.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `SUDO_PASSWORD` is set, so `sudo -S` is fed by the agent's host, not guessed.
    pub(crate) sudo_password_set: bool,
    /// No human will answer an ask; which Hermes setting says what to do.
    pub(crate) unattended: Option<NoHuman>,
    /// `--on-ask block`: the agent cannot ask, so an ask is a block.
    pub(crate) on_ask: OnAsk,
    /// The home directory, for `~` in rules and paths.
    pub(crate) home: Option<String>,
    /// The user's compiled policy (empty: built-in layers only).
    pub(crate) policy: Arc<Policy>,
    /// The project the call works in (its VCS root, or `CLAUDE_PROJECT_DIR`):
    /// writes inside it are ordinary work, writes elsewhere ask.
    pub(crate) project: Option<String>,
    /// `$HERMES_HOME`, when set.
    pub(crate) hermes_home: Option<String>,
    /// `HERMES_WRITE_SAFE_ROOT`'s directories: writes outside them block.
    pub(crate) safe_roots: Vec<String>,
    /// The running warden binary, which the guard's own rule protects.
    pub(crate) warden_exe: Option<String>,
    /// The guard's files where this machine keeps them (see [`Around`]).
    pub(crate) guard_paths: Vec<String>,
    /// The file system, to follow symlinks in paths (none: paths are
    /// judged as written, folded).
    pub(crate) links: Option<Arc<dyn Links>>,
}

impl Options {
    /// These options with `home` as the home directory.
    pub fn with_home(mut self, home: impl Into<String>) -> Options {
        self.home = Some(home.into());
        self
    }

    /// These options with `project` as the project the calls work in.
    pub fn with_project(mut self, project: impl Into<String>) -> Options {
        self.project = Some(project.into());
        self
    }

    /// These options with writes confined to `roots` (`HERMES_WRITE_SAFE_ROOT`).
    pub fn with_safe_roots(mut self, roots: Vec<String>) -> Options {
        self.safe_roots = roots;
        self
    }

    /// These options with symlinks followed through `links`.
    pub fn with_links(mut self, links: Arc<dyn Links>) -> Options {
        self.links = Some(links);
        self
    }

    /// The file system, when paths are to be followed through it.
    fn disk(&self) -> Option<&dyn Links> {
        self.links.as_deref()
    }

    /// What the path rules need to know, for `call`.
    fn around<'a>(&'a self, call: &'a ToolCall) -> Around<'a> {
        let home = self.home.as_deref();
        let dir = files::call_dir(call, home);
        Around {
            home,
            project: files::project(self.project.as_deref(), dir.as_deref(), home),
            dir,
            hermes_home: self.hermes_home.as_deref(),
            safe_roots: &self.safe_roots,
            profile: call.profile.as_deref(),
            cross_profile: call.cross_profile,
            warden_exe: self.warden_exe.as_deref(),
            guard_paths: &self.guard_paths,
            links: self.disk(),
            guard_aliases: Default::default(),
        }
    }
}

/// Why no human is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoHuman {
    /// A Hermes cron job (`HERMES_CRON_SESSION`): `approvals.cron_mode`.
    Cron,
    /// A one-shot query: `approvals.single_query_mode`.
    SingleQuery,
    /// Any other unattended run: `approvals.unattended_mode`.
    Unattended,
}

/// What an ask becomes once every layer has run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnAsk {
    /// It stays an ask, for agents that can ask a person.
    #[default]
    Ask,
    /// It becomes a block, for agents that would otherwise let the call run
    /// (Hermes 0.19 ignores `approve`).
    Block,
}

/// One stage of the decision, as docs/decisions.md's table and `warden why` show it.
pub struct Stage {
    /// Its name in `warden why` and docs/decisions.md.
    pub name: &'static str,
    /// What it can decide.
    pub decides: &'static str,
    /// What it catches, in Markdown, for the layer table of docs/decisions.md.
    pub catches: &'static str,
    /// Post-processing runs after the layers, on the verdict they gave.
    pub after_layers: bool,
    run: fn(&mut Context<'_>) -> Step,
}

/// What one stage did: perhaps a verdict, and what it saw (filled only
/// when explaining).
#[derive(Debug, Default)]
pub(crate) struct Step {
    verdict: Option<Verdict>,
    notes: Vec<Note>,
}

/// A line of what a stage saw: mostly fixed words, so most cost nothing.
type Note = Cow<'static, str>;

impl Step {
    fn pass(note: impl Into<Note>) -> Step {
        Step {
            verdict: None,
            notes: vec![note.into()],
        }
    }

    fn decide(verdict: Verdict, note: impl Into<Note>) -> Step {
        Step {
            verdict: Some(verdict),
            notes: vec![note.into()],
        }
    }
}

/// Everything a stage may look at, and what earlier stages left for later ones.
pub(crate) struct Context<'a> {
    call: &'a ToolCall,
    analysis: Option<&'a Analysis>,
    options: &'a Options,
    policy: &'a Policy,
    /// The files the call reads or writes, resolved.
    touched: Vec<files::Touched>,
    /// What the path rules need to know.
    around: Around<'a>,
    /// Every stage runs and reports, even after the verdict is known.
    explaining: bool,
    /// The user layer's findings: the plugin's patterns in them belong to
    /// the dangerous layer.
    user: user::UserOutcome,
    /// A user's allow rule won, so the dangerous layer stands aside.
    user_allowed: bool,
    /// A dangerous rule or pattern matched (the threshold's high risk).
    flagged: bool,
    /// Why a call no layer decided is allowed, when something matched but
    /// was lifted (yolo, `command_allowlist`).
    lifted: Option<Verdict>,
    /// The verdict so far.
    verdict: Option<Verdict>,
}

impl Context<'_> {
    /// Yolo: `approvals.mode: off` in a trusted file. Never from the
    /// environment: `HERMES_YOLO_MODE` in the hook's environment could have
    /// been put there by the agent it guards (Hermes reads its `.env`), and
    /// the environment may only tighten.
    fn yolo(&self) -> bool {
        self.policy.settings.approvals_off == Some(true)
    }

    /// A note that takes formatting: made only when explaining.
    fn note(&self, text: impl FnOnce() -> String) -> Note {
        if self.explaining {
            Cow::Owned(text())
        } else {
            Cow::Borrowed("")
        }
    }
}

/// What every stage saw, for `warden why`.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// Each stage that ran, in order, with its notes and whether its
    /// verdict is the one that stood (the deciding layer, or
    /// post-processing when it changed the verdict).
    pub steps: Vec<ExplainedStep>,
    pub verdict: Verdict,
    /// The project the call was judged in.
    pub project: Option<String>,
    /// Every file the call touches, as the path rules saw it.
    pub files: Vec<ExplainedFile>,
}

/// One file a call touches: as written, and resolved.
#[derive(Debug, Clone)]
pub struct ExplainedFile {
    pub literal: String,
    pub write: bool,
    /// Absolute, folded, symlinks followed.
    pub resolved: String,
    /// The same without following symlinks.
    pub lexical: String,
    /// Why it could not be resolved, if it could not.
    pub problem: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ExplainedStep {
    pub name: &'static str,
    pub notes: Vec<String>,
    pub decided: bool,
}

/// Decides one tool call.
pub fn evaluate(call: &ToolCall, options: &Options) -> Verdict {
    run(call, options, false).0
}

/// Decides one tool call and reports what every stage saw.
pub fn explain(call: &ToolCall, options: &Options) -> Explanation {
    let (verdict, steps) = run(call, options, true);
    let around = options.around(call);
    let command = analyze(call, options.home.as_deref());
    let disk = options.disk();
    let line = command
        .as_ref()
        .map(|a| reach::LineLinks::of(a, &around, disk))
        .unwrap_or_default();
    let files = files::touched(call, command.as_ref(), &around, disk, &line)
        .into_iter()
        .map(|t| ExplainedFile {
            literal: t.literal,
            write: t.write,
            resolved: t.resolution.path,
            lexical: t.resolution.lexical,
            problem: t.resolution.problem,
        })
        .collect();
    Explanation {
        steps,
        verdict,
        project: around.project,
        files,
    }
}

/// Decides one shell command line with the built-in layers and `options`.
pub fn evaluate_command(command: &str, options: &Options) -> Verdict {
    evaluate(&ToolCall::shell(command, None), options)
}

/// The call's command line, analysed where it runs: its `workdir` is a
/// `cd` the line starts with, every rule judging it as it judges one.
fn analyze(call: &ToolCall, home: Option<&str>) -> Option<Analysis> {
    let Some(command) = call.command() else {
        // A file tool writing code that a tool runs by convention: judged
        // as a shell write of the same text would be.
        let written: Vec<(String, String)> = call
            .written
            .iter()
            .filter(|(path, _)| shell::convention::format(path).is_some())
            .cloned()
            .collect();
        return (!written.is_empty()).then(|| shell::convention::analyze_written(&written));
    };
    Some(shell::analyze_in(command, files::workdir(call, home)))
}

fn run(call: &ToolCall, options: &Options, explaining: bool) -> (Verdict, Vec<ExplainedStep>) {
    if !call.is_pre_tool() {
        let verdict = Verdict::new(
            Decision::Allow,
            Layer::Default,
            None,
            "",
            Reason::OtherEvent {
                event: call.event.clone(),
            },
        );
        return (verdict, Vec::new());
    }
    let mut analysis = analyze(call, options.home.as_deref());
    let around = options.around(call);
    let disk = options.disk();
    let line = analysis
        .as_ref()
        .map(|a| reach::LineLinks::of(a, &around, disk))
        .unwrap_or_default();
    let touched = files::touched(call, analysis.as_ref(), &around, disk, &line);
    if let Some(analysis) = analysis.as_mut() {
        files::place_commands(analysis, &around);
        reach::add_copies(analysis, &around, disk, &line);
    }
    let mut cx = Context {
        call,
        analysis: analysis.as_ref(),
        options,
        policy: &options.policy,
        touched,
        around,
        explaining,
        user: user::UserOutcome::default(),
        user_allowed: false,
        flagged: false,
        lifted: None,
        verdict: None,
    };
    let mut steps = Vec::new();
    for stage in STAGES {
        // Once a layer has decided, the other layers only run to report.
        if cx.verdict.is_some() && !stage.after_layers && !explaining {
            continue;
        }
        let step = (stage.run)(&mut cx);
        let decided = match step.verdict {
            // Post-processing answers only when it changed the verdict.
            Some(verdict) if stage.after_layers => {
                cx.verdict = Some(verdict);
                true
            }
            Some(verdict) if cx.verdict.is_none() => {
                cx.verdict = Some(verdict);
                true
            }
            _ => false,
        };
        if explaining {
            steps.push(ExplainedStep {
                name: stage.name,
                notes: step.notes.into_iter().map(Cow::into_owned).collect(),
                decided,
            });
        }
    }
    let verdict = cx.verdict.take().unwrap_or_else(|| layers::no_match(&cx));
    (verdict, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explained(command: &str, options: &Options) -> Explanation {
        explain(&ToolCall::shell(command, None), options)
    }

    #[test]
    fn explaining_walks_every_stage_in_order_and_marks_the_decider() {
        let explanation = explained("git push -f", &Options::default());
        let names: Vec<&str> = explanation.steps.iter().map(|s| s.name).collect();
        let order: Vec<&str> = STAGES.iter().map(|s| s.name).collect();
        assert_eq!(names, order);
        let deciders: Vec<&str> = explanation
            .steps
            .iter()
            .filter(|s| s.decided)
            .map(|s| s.name)
            .collect();
        assert_eq!(deciders, ["dangerous"]);
        assert!(explanation.steps.iter().all(|s| !s.notes.is_empty()));
        assert_eq!(
            explanation.verdict,
            evaluate_command("git push -f", &Options::default())
        );
    }

    #[test]
    fn post_processing_is_a_stage_that_changes_the_verdict() {
        let options = Options {
            on_ask: OnAsk::Block,
            ..Options::default()
        };
        let explanation = explained("git push -f", &options);
        let post = explanation.steps.last().expect("a post-processing step");
        assert!(post.decided, "{post:?}");
        assert_eq!(explanation.verdict.decision, Decision::Block);
        // The deciding layer keeps its name; the change is recorded.
        assert_eq!(explanation.verdict.layer, Layer::Dangerous);
        assert!(explanation
            .verdict
            .message()
            .starts_with("Blocked: `git push -f`"));
    }

    #[test]
    fn once_a_layer_decides_the_rest_only_report() {
        // rm -rf / is hardline; the dangerous layer would also match it.
        let verdict = evaluate_command("rm -rf /", &Options::default());
        assert_eq!(verdict.layer, Layer::Hardline);
        let explanation = explained("rm -rf /", &Options::default());
        assert_eq!(explanation.verdict, verdict);
        let dangerous = explanation
            .steps
            .iter()
            .find(|s| s.name == "dangerous")
            .expect("dangerous step");
        assert!(!dangerous.decided);
    }

    #[test]
    fn other_events_run_no_stage() {
        let call =
            ToolCall::shell("rm -rf /", None).from(crate::payload::Agent::Hermes, "post_tool_call");
        let explanation = explain(&call, &Options::default());
        assert!(explanation.steps.is_empty());
        assert_eq!(explanation.verdict.decision, Decision::Allow);
    }
}
