//! Built-in rules: what the machine trusts and what time it believes (certificate authorities added, TLS verification turned off, the clock set or its sync stopped), one row per program.

use super::exec::assignments;
use super::opts::{parse_opts, Spec};
use super::security::{halted, names_one_of};
use super::targets::{classify, Target};
use super::{verb, verb_if, Matcher, Rule, Signs, Verb};
use crate::shell::{Command, RedirectOp};
use crate::verdict::Decision;

/// Programs and arguments that add a certificate authority to a trust store
/// the system, a browser or a runtime checks servers against.
#[rustfmt::skip]
static CA: &[Verb] = &[
    // Debian, Alpine, SUSE; Fedora and RHEL; p11-kit.
    verb("update-ca-certificates", ""),
    verb("update-ca-trust", r"^(?:(?:-\S+ )*(?:extract|enable|force-enable)\b|$)"),
    verb_if("trust", r"^(?:-\S+ )*(?:anchor|extract-compat)\b", |c| !c.args.iter().any(|a| a == "--remove")),
    verb("dpkg-reconfigure", r"(?:^| )ca-certificates(?: |$)"),
    // NSS databases (browsers, system NSS) and Windows' certificate stores.
    verb_if("certutil", r"(?:^| )-[AM](?: |$)", nss_trusts),
    verb("certutil", r"(?i)(?:^| )[-/](?:addstore|importcert)(?: |$)"),
    // macOS keychains and their trust settings.
    verb("security", r"^(?:-\S+ )*(?:add-trusted-cert|trust-settings-import)\b"),
    // Java's trust store, the runtime's `cacerts`.
    verb_if("keytool", r"(?:^| )-(?:importcert|import|importkeystore|delete|changealias)(?: |$)", java_cacerts),
];

/// Programs that turn TLS certificate checks off for themselves from now
/// on, through a setting [`TLS_SETTINGS`] names.
#[rustfmt::skip]
static TLS_OFF: &[Verb] = &[
    verb_if("git", "", tool_tls_off),
    verb_if("npm", "", tool_tls_off),
    verb_if("pnpm", "", tool_tls_off),
    verb_if("yarn", "", tool_tls_off),
    verb_if("conda", "", tool_tls_off),
    verb_if("bundle", "", tool_tls_off),
    verb_if("composer", "", tool_tls_off),
    verb_if("kubectl", "", tool_tls_off),
    verb_if("helm", "", tool_tls_off),
    verb_if("gcloud", "", tool_tls_off),
    verb_if("go", "", tool_tls_off),
    verb_if("launchctl", "", tool_tls_off),
    // The same settings written into the tools' own files: `insecure` in
    // `.curlrc`, `check_certificate = off` in `.wgetrc`, `ssl_verify: false`
    // in `.condarc`.
    verb_if("echo", "", tls_off_written),
    verb_if("printf", "", tls_off_written),
];

/// A setting that turns certificate checks off: the program, the words its
/// operands must begin with (`config` for `kubectl config set-cluster`),
/// the key (lowercase, matched whole or as the last part of a dotted or
/// slashed key: `http.<url>.sslverify`, `auth/disable_ssl_validation`), and
/// the values that turn checks off (`None`: any value but empty).
struct TlsSetting {
    program: &'static str,
    after: &'static [&'static str],
    key: &'static str,
    off: Option<&'static [&'static str]>,
}

const fn setting(
    program: &'static str,
    after: &'static [&'static str],
    key: &'static str,
    off: Option<&'static [&'static str]>,
) -> TlsSetting {
    TlsSetting {
        program,
        after,
        key,
        off,
    }
}

const FALSE: Option<&[&str]> = Some(&["false", "no", "off", "0"]);
const TRUE: Option<&[&str]> = Some(&["true", "yes", "on", "1"]);

#[rustfmt::skip]
const TLS_SETTINGS: &[TlsSetting] = &[
    setting("git", &[], "sslverify", FALSE),
    setting("npm", &[], "strict-ssl", FALSE),
    setting("pnpm", &[], "strict-ssl", FALSE),
    setting("yarn", &[], "strict-ssl", FALSE),
    setting("yarn", &[], "enablestrictssl", FALSE),
    setting("conda", &[], "ssl_verify", FALSE),
    setting("bundle", &[], "ssl_verify_mode", Some(&["0"])),
    setting("composer", &[], "disable-tls", TRUE),
    setting("composer", &[], "secure-http", FALSE),
    // One call with `--insecure-skip-tls-verify` is like `curl -k`; kept in
    // the kubeconfig or the repository list, it holds for every later call.
    setting("kubectl", &["config"], "insecure-skip-tls-verify", TRUE),
    setting("helm", &["repo", "add"], "insecure-skip-tls-verify", TRUE),
    setting("gcloud", &["config", "set"], "disable_ssl_validation", TRUE),
    setting("go", &["env"], "goinsecure", None),
    setting("launchctl", &["setenv"], "node_tls_reject_unauthorized", Some(&["0"])),
    setting("launchctl", &["setenv"], "pythonhttpsverify", Some(&["0"])),
    setting("launchctl", &["setenv"], "git_ssl_no_verify", None),
];

/// Whether `word` (lowercase, dashes stripped) names `key`.
fn is_key(word: &str, key: &str) -> bool {
    word.strip_suffix(key)
        .is_some_and(|head| head.is_empty() || head.ends_with(['.', '/']))
}

fn tool_tls_off(cmd: &Command) -> bool {
    // A setting is turned off only where an argument names its key: asked
    // of every `git` command, whose arguments are seldom any setting.
    let named = TLS_SETTINGS
        .iter()
        .filter(|s| s.program == cmd.program)
        .any(|s| cmd.args.iter().any(|a| super::contains_any_case(a, s.key)));
    if !named {
        debug_assert!(!tls_turned_off(cmd));
        return false;
    }
    tls_turned_off(cmd)
}

/// [`tool_tls_off`], every argument read.
fn tls_turned_off(cmd: &Command) -> bool {
    let settings = TLS_SETTINGS.iter().filter(|s| s.program == cmd.program);
    let operands = cmd.operands();
    for s in settings {
        if !operands.starts_with(s.after) {
            continue;
        }
        for (i, arg) in cmd.args.iter().enumerate() {
            let lower = arg.to_ascii_lowercase();
            let flag = lower.starts_with("--");
            let word = lower.trim_start_matches('-');
            let (key, value) = match word.split_once('=') {
                Some((k, v)) => (k, Some(v.to_string())),
                None => (word, None),
            };
            let value = if let Some(negated) = key.strip_prefix("no-").filter(|_| flag) {
                // `--no-strict-ssl`.
                is_key(negated, s.key).then(|| "false".to_string())
            } else if !is_key(key, s.key) {
                None
            } else if let Some(v) = value {
                Some(v)
            } else if flag {
                // A bare `--insecure-skip-tls-verify` is true.
                Some("true".to_string())
            } else {
                cmd.args.get(i + 1).map(|v| v.to_ascii_lowercase())
            };
            let off = value.is_some_and(|v| match s.off {
                Some(values) => values.contains(&v.as_str()),
                None => !v.is_empty(),
            });
            if off {
                return true;
            }
        }
    }
    false
}

/// Lines of a tool's configuration that turn certificate checks off, with
/// their spaces taken out.
const TLS_OFF_LINES: &[&str] = &[
    "check_certificate=off",
    "ssl_verify:false",
    "ssl_verify=false",
];

/// `echo insecure >> ~/.curlrc` and the like: a line that turns checks
/// off, written into a tool's start-up file.
fn tls_off_written(cmd: &Command) -> bool {
    writes_tool_rc(cmd)
        && cmd.args.iter().any(|arg| {
            let lower = arg
                .to_ascii_lowercase()
                .replace("\\n", " ")
                .replace("\\t", " ");
            let compact: String = lower.split_whitespace().collect();
            lower
                .split_whitespace()
                .any(|w| matches!(w, "insecure" | "-k" | "--insecure"))
                || TLS_OFF_LINES.iter().any(|l| compact.contains(l))
        })
}

/// Programs and arguments that set the system clock to a time of the
/// caller's choosing, or stop it being kept right by network time. Syncing
/// it (`ntpdate HOST`, `sntp -S`, `hwclock --hctosys`, `chronyc makestep`)
/// is how it is kept right, and stays allowed.
#[rustfmt::skip]
static CLOCK: &[Verb] = &[
    verb_if("date", "", sets_date),
    verb_if("gdate", "", sets_date),
    verb("timedatectl", r"(?:^| )(?:set-time|set-ntp (?:false|no|0|off))(?: |$)"),
    verb("hwclock", r"(?:^| )--set(?: |=|$)"),
    verb("systemsetup", r"(?i)(?:^| )-(?:setdate|settime|setusingnetworktime (?:off|no))(?: |$)"),
    verb("chronyc", r"(?:^| )(?:settime|manual on|offline)(?: |$)"),
    verb_if("systemctl", "", halts_time_sync),
    verb_if("service", "", halts_time_sync),
    verb_if("rc-service", "", halts_time_sync),
    verb_if("update-rc.d", "", halts_time_sync),
    verb_if("chkconfig", "", halts_time_sync),
    verb_if("rc-update", "", halts_time_sync),
    verb_if("launchctl", "", halts_time_sync),
    verb_if("pkill", "", halts_time_sync),
    verb_if("killall", "", halts_time_sync),
    verb_if("kill", "", halts_time_sync),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "trust.ca-added",
        category: "add a certificate authority to a trust store (update-ca-certificates, trust anchor, security add-trusted-cert, keytool cacerts)",
        reason: "whoever holds that authority's key can pose as any site, reading and changing traffic that looks secure",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(CA),
        hits: &["sudo update-ca-certificates", "update-ca-trust extract", "update-ca-trust", "sudo trust anchor ./corp-root.crt", "certutil -A -d sql:$HOME/.pki/nssdb -n proxy -t C,, -i proxy.crt", "certutil -addstore -f Root ca.cer", "sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ca.crt", "security trust-settings-import trust.plist", "keytool -importcert -cacerts -file ca.crt -alias x", "keytool -import -keystore $JAVA_HOME/lib/security/cacerts -file ca.der"],
        misses: &["trust list", "trust anchor --remove old.crt", "security remove-trusted-cert old.pem", "security add-certificates -k build.keychain cert.pem", "update-ca-trust --help", "certutil -L -d sql:$HOME/.pki/nssdb", "certutil -L -a -n x -d .", "certutil -A -n server -t ',,' -i server.crt -d .", "certutil -hashfile setup.exe SHA256", "security find-certificate -a", "security verify-cert -c server.pem", "keytool -list -cacerts", "keytool -importcert -keystore ./truststore.jks -file test.crt"],
    },
    Rule {
        id: "trust.tls-verify-off",
        category: "turn TLS certificate verification off in a tool's configuration (git sslVerify, npm strict-ssl, kubectl insecure-skip-tls-verify)",
        reason: "everything the tool fetches from now on, code included, can be swapped by anyone on the path to the server",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(TLS_OFF),
        hits: &["git config --global http.sslVerify false", "git -c http.sslVerify=false clone https://x.example/a.git", "npm config set strict-ssl false", "yarn config set enableStrictSsl false", "conda config --set ssl_verify false", "composer config -g disable-tls true", "kubectl config set-cluster prod --insecure-skip-tls-verify=true", "launchctl setenv NODE_TLS_REJECT_UNAUTHORIZED 0", "echo insecure >> ~/.curlrc", "echo 'check_certificate = off' >> ~/.wgetrc"],
        misses: &["git config --get http.sslVerify", "git config --global http.sslVerify true", "npm config get strict-ssl", "npm config set strict-ssl true", "kubectl config set-cluster prod --insecure-skip-tls-verify=false", "curl -k https://localhost:8443", "echo 'silent' >> ~/.curlrc", "echo insecure"],
    },
    Rule {
        id: "trust.tls-verify-env",
        category: "turn TLS certificate verification off through the environment (NODE_TLS_REJECT_UNAUTHORIZED=0, GIT_SSL_NO_VERIFY)",
        reason: "what the programs run with it fetch, code included, can be swapped by anyone on the path to the server",
        decision: Decision::Ask,
        matcher: Matcher::AnyProgram { signs: Signs::SETS, check: tls_off_in_env },
        hits: &["export NODE_TLS_REJECT_UNAUTHORIZED=0", "NODE_TLS_REJECT_UNAUTHORIZED=0 npm install", "export PYTHONHTTPSVERIFY=0", "GIT_SSL_NO_VERIFY=1 git clone https://x.example/a.git", "export npm_config_strict_ssl=false", "set -gx NODE_TLS_REJECT_UNAUTHORIZED 0"],
        misses: &["export NODE_TLS_REJECT_UNAUTHORIZED=1", "export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/corp.pem", "NODE_ENV=production node app.js", "echo $NODE_TLS_REJECT_UNAUTHORIZED", "set -gx NODE_ENV production", "set -e"],
    },
    Rule {
        id: "trust.clock-set",
        category: "set the system clock or stop network time sync (date -s, timedatectl set-time, systemsetup -settime)",
        reason: "certificates, tokens, logs and builds all rely on the time: a wrong clock accepts what expired and scrambles the record",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(CLOCK),
        hits: &["sudo date -s '2020-01-01 00:00:00'", "date --set=tomorrow", "date 010100002020", "sudo date 0101000030.15", "timedatectl set-time '2019-12-31 23:59'", "timedatectl set-ntp false", "hwclock --set --date='2015-01-01'", "systemsetup -setusingnetworktime off", "systemsetup -settime 00:00:00", "sudo systemctl stop systemd-timesyncd", "systemctl disable --now chronyd", "launchctl unload /System/Library/LaunchDaemons/com.apple.timed.plist", "chronyc settime 2020-01-01"],
        misses: &["date", "date +%s", "date -d yesterday", "date -r build.log", "date -j 0101000030 +%s", "date -u +%Y%m%d", "timedatectl", "timedatectl set-timezone UTC", "timedatectl set-ntp true", "hwclock --show", "hwclock --systohc", "hwclock --hctosys", "ntpdate pool.ntp.org", "sntp -sS pool.ntp.org", "timedatectl set-local-rtc 0", "systemsetup -setnetworktimeserver time.apple.com", "systemsetup -gettime", "systemsetup -settimezone Europe/Paris", "ntpdate -q pool.ntp.org", "sntp pool.ntp.org", "chronyc tracking", "systemctl restart chronyd"],
    },
];

/// Whether `keytool` changes Java's own trust store: `-cacerts`, or a
/// `-keystore` that is a `cacerts` file or lies in a system directory.
/// A project's own test trust store is its business.
fn java_cacerts(cmd: &Command) -> bool {
    let mut args = cmd.args.iter();
    while let Some(arg) = args.next() {
        if arg == "-cacerts" {
            return true;
        }
        if arg == "-keystore" || arg == "-destkeystore" {
            let store = args.next().map_or("", String::as_str);
            let name = store.rsplit('/').next().unwrap_or(store);
            if name.ends_with("cacerts")
                || matches!(classify(store, None), Target::System | Target::Root)
            {
                return true;
            }
        }
    }
    false
}

/// Whether `cmd` writes to a tool's start-up file in the home, read by
/// every later call: curl's, wget's, conda's. (The system's copies, git's
/// and the package managers' files are the path rules'.)
fn writes_tool_rc(cmd: &Command) -> bool {
    cmd.redirects.iter().any(|r| {
        matches!(r.op, RedirectOp::Write | RedirectOp::Append)
            && matches!(
                r.target.rsplit('/').next(),
                Some(".curlrc" | ".wgetrc" | ".condarc")
            )
    })
}

/// Whether NSS `certutil -A`/`-M` gives the certificate trust: `C` or `T`
/// (an authority trusted to issue) or `P` (a peer trusted as it is) in its
/// `-t` flags. `-t ",,"` only stores it.
fn nss_trusts(cmd: &Command) -> bool {
    cmd.args
        .iter()
        .position(|a| a == "-t")
        .and_then(|i| cmd.args.get(i + 1))
        .is_some_and(|flags| flags.contains(['C', 'T', 'P']))
}

/// The options of GNU and BSD `date` that take a value.
#[rustfmt::skip]
const DATE: Spec = Spec::gnu("dfrsvIz", &["date", "file", "reference", "set", "iso-8601", "rfc-3339", "resolution"]);

/// `date -s WHEN`/`--set`, or a `[MMDD]hhmm[[CC]YY][.ss]` operand (GNU
/// and BSD alike), which sets the clock unless BSD's `-j` says not to.
fn sets_date(cmd: &Command) -> bool {
    let opts = parse_opts(&cmd.args, &DATE);
    if opts.value('s').is_some() || opts.long("set", 3) {
        return true;
    }
    let digits = |o: &str| {
        let (time, secs) = o.split_once('.').unwrap_or((o, "00"));
        (4..=12).contains(&time.len())
            && time.bytes().all(|b| b.is_ascii_digit())
            && secs.len() == 2
            && secs.bytes().all(|b| b.is_ascii_digit())
    };
    !opts.flag('j') && opts.operands.iter().any(|o| digits(o))
}

/// Time sync daemons, by service, label or process name.
#[rustfmt::skip]
const TIME_SERVICES: &[&str] = &[
    "timesyncd", "systemd-timesyncd", "chronyd", "chrony", "ntpd", "ntp", "ntpsec", "openntpd", "timed",
];

fn halts_time_sync(cmd: &Command) -> bool {
    halted(cmd).iter().any(|u| names_one_of(u, TIME_SERVICES))
}

/// Variables that turn certificate checks off, and the values that do:
/// `None` for any value but empty.
#[rustfmt::skip]
const TLS_OFF_VARS: &[(&str, Option<&[&str]>)] = &[
    ("NODE_TLS_REJECT_UNAUTHORIZED", Some(&["0"])),
    ("PYTHONHTTPSVERIFY", Some(&["0"])),
    ("GIT_SSL_NO_VERIFY", None),
    ("NPM_CONFIG_STRICT_SSL", Some(&["false", "0", "no"])),
    ("AZURE_CLI_DISABLE_CONNECTION_VERIFICATION", None),
    ("GOINSECURE", None),
];

fn tls_off_in_env(cmd: &Command) -> bool {
    let mut set = assignments(cmd);
    // fish: `set -gx NAME VALUE`.
    if cmd.program == "set" {
        let words: Vec<&str> = cmd
            .args
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-'))
            .collect();
        if let [name, value, ..] = words.as_slice() {
            set.push((name, value));
        }
    }
    set.into_iter().any(|(name, value)| {
        TLS_OFF_VARS.iter().any(|(var, values)| {
            name.eq_ignore_ascii_case(var)
                && match values {
                    Some(values) => values.iter().any(|v| value.eq_ignore_ascii_case(v)),
                    None => !value.is_empty(),
                }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_operands() {
        let sets = |a: &[&str]| sets_date(&Command::new("date", a));
        assert!(sets(&["0101000030"]) && sets(&["-u", "010100002020.30"]));
        assert!(sets(&["-s", "2020-01-01"]) && sets(&["--set=now"]));
        assert!(!sets(&["+%Y%m%d"]) && !sets(&["-j", "0101000030"]));
        assert!(!sets(&["-d", "20200101"]) && !sets(&["-r", "1700000000"]));
    }
}
