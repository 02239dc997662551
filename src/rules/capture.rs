//! Built-in rules: the network watched or probed (live packet capture, interception, port and host scans of other machines), one row per program.

use super::leak::hosts::is_loopback;
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Arguments that only ask a program about itself.
const INFO: &[&str] = &[
    "--version",
    "-version",
    "-V",
    "version",
    "--help",
    "-h",
    "help",
];

/// Whether every argument only asks the program about itself
/// (`gotty --version`); a bare program does its work.
pub(super) fn only_info(cmd: &Command) -> bool {
    !cmd.args.is_empty() && cmd.args.iter().all(|a| INFO.contains(&a.as_str()))
}

pub(super) fn not_info(cmd: &Command) -> bool {
    !only_info(cmd)
}

/// Whether `cmd` names one of `options`, alone (`-r file`), with its value
/// attached (`-rfile`, `--read-file=x`), or at the end of a cluster of
/// flags (`-nnr file`; `flags` are the letters that may come before it).
fn has_option(cmd: &Command, options: &[&str], flags: &str) -> bool {
    cmd.args.iter().any(|a| {
        options.iter().any(|o| {
            let long = o.starts_with("--");
            a == o
                || (long && a.strip_prefix(o).is_some_and(|r| r.starts_with('=')))
                || (!long && o.len() == 2 && a.starts_with(o) && !a.starts_with("--"))
                || (!long
                    && o.len() == 2
                    && a.len() > 2
                    && a.starts_with('-')
                    && !a.starts_with("--")
                    && a[1..]
                        .trim_start_matches(|c| flags.contains(c))
                        .starts_with(&o[1..]))
        })
    })
}

/// A capture tool watches the wire unless it reads a saved capture
/// (`-r file`) or only lists interfaces or prints its version.
fn captures_live(cmd: &Command) -> bool {
    // Flags that may share a cluster with `-r` (`tcpdump -nnr f`).
    const FLAGS: &str = "AbdDefhHIJKlLnNOpqStuUvxXy#";
    let (reads, lists): (&[&str], &[&str]) = match cmd.program.as_str() {
        "tcpdump" => (
            &["-r", "--read-file", "-V"],
            &[
                "-D",
                "--list-interfaces",
                "-L",
                "--list-data-link-types",
                "-J",
                "--list-time-stamp-types",
                "-d",
                "-dd",
                "-ddd",
            ],
        ),
        "tshark" | "termshark" => (
            &["-r", "--read-file"],
            &["-D", "--list-interfaces", "-L", "-G", "-v"],
        ),
        "dumpcap" => (&[], &["-D", "--list-interfaces", "-L", "-v", "-M"]),
        "ngrep" => (&["-I"], &["-L"]),
        "tcpflow" => (&["-r", "-R"], &[]),
        "p0f" => (&["-r"], &["-L"]),
        _ => (&[], &[]),
    };
    if only_info(cmd) || has_option(cmd, reads, FLAGS) || has_option(cmd, lists, "") {
        return false;
    }
    // `termshark capture.pcap` and `wireshark f.pcap` open a file.
    match cmd.program.as_str() {
        "termshark" => !cmd.args.iter().any(|a| is_capture_file(a)),
        "wireshark" => has_option(cmd, &["-i", "-k", "--interface"], ""),
        _ => true,
    }
}

fn is_capture_file(word: &str) -> bool {
    [".pcap", ".pcapng", ".cap", ".pcap.gz"]
        .iter()
        .any(|ext| word.ends_with(ext))
}

/// Packet capture and interception tools, each asked unless it reads a
/// saved capture or only lists interfaces.
#[rustfmt::skip]
static SNIFF: &[Verb] = &[
    verb_if("tcpdump", "", captures_live),
    verb_if("tshark", "", captures_live),
    verb_if("termshark", "", captures_live),
    verb_if("wireshark", "", captures_live),
    verb_if("dumpcap", "", captures_live),
    verb_if("ngrep", "", captures_live),
    verb_if("tcpflow", "", captures_live),
    verb_if("p0f", "", captures_live),
    // Capture engines and sniffers with no offline use worth telling apart.
    verb_if("netsniff-ng", "", not_info),
    verb_if("sniffglue", "", not_info),
    verb_if("tcpick", "", not_info),
    verb_if("justniffer", "", not_info),
    // Credential sniffers and interception (ARP/DNS spoofing, poisoning).
    verb_if("dsniff", "", not_info),
    verb_if("urlsnarf", "", not_info),
    verb_if("mailsnarf", "", not_info),
    verb_if("msgsnarf", "", not_info),
    verb_if("filesnarf", "", not_info),
    verb_if("webspy", "", not_info),
    verb_if("sshmitm", "", not_info),
    verb_if("macof", "", not_info),
    verb_if("arpspoof", "", not_info),
    verb_if("dnsspoof", "", not_info),
    verb_if("ettercap", "", not_info),
    verb_if("bettercap", "", not_info),
    verb_if("responder", "", not_info),
    verb_if("mitm6", "", not_info),
    verb_if("sslsplit", "", not_info),
    verb_if("sslstrip", "", not_info),
    // Wireless capture and injection.
    verb_if("airodump-ng", "", not_info),
    verb_if("aireplay-ng", "", not_info),
    verb("airmon-ng", r"^start(?-u:\b)"),
    verb_if("kismet", "", not_info),
    verb_if("wifite", "", not_info),
    // Other people's traffic routed through this machine's proxy.
    verb("mitmproxy", r"--mode[= ](?:transparent|wireguard)(?-u:\b)"),
    verb("mitmdump", r"--mode[= ](?:transparent|wireguard)(?-u:\b)"),
    verb("mitmweb", r"--mode[= ](?:transparent|wireguard)(?-u:\b)"),
    // An interface put in promiscuous mode hears every frame on the wire.
    verb("ip", r"^(?:-[^ ]+ )*l(?:i|in|ink)? set(?-u:\b).* promisc on(?-u:\b)"),
    verb("ifconfig", r"(?:^| )promisc(?-u:\b)"),
    // macOS: an iOS device's traffic mirrored onto a capture interface, and
    // the system's web traffic sent through a proxy.
    verb("rvictl", r"(?:^| )-s(?-u:\b)"),
    verb("networksetup", r"(?i)^-set(?:secure)?webproxy(?-u:\b)|^-setsocksfirewallproxy(?-u:\b)|^-setautoproxyurl(?-u:\b)"),
];

/// nmap's options that take the next word as their value, so that word is
/// not a target.
#[rustfmt::skip]
const NMAP_VALUED: &[&str] = &[
    "-p", "-e", "-S", "-D", "-g", "-b", "-iL", "-iR", "-oN", "-oX", "-oG", "-oA", "-oS", "-oM", "-sI",
    "--script", "--script-args", "--script-args-file", "--top-ports", "--exclude", "--excludefile",
    "--exclude-ports", "--source-port", "--data-length", "--data", "--data-string", "--ttl",
    "--min-rate", "--max-rate", "--max-retries", "--host-timeout", "--scan-delay", "--max-scan-delay",
    "--min-hostgroup", "--max-hostgroup", "--min-parallelism", "--max-parallelism", "--mtu",
    "--proxies", "--resume", "--stylesheet", "--datadir", "--servicedb", "--versiondb",
    "--dns-servers", "--spoof-mac", "--version-intensity", "--port-ratio", "--ip-options",
    "--min-rtt-timeout", "--max-rtt-timeout", "--initial-rtt-timeout",
];
const MASSCAN_VALUED: &[&str] = &[
    "-p",
    "--ports",
    "--rate",
    "--max-rate",
    "--exclude",
    "--excludefile",
    "--includefile",
    "-iL",
    "-oX",
    "-oG",
    "-oJ",
    "-oL",
    "-oB",
    "-oD",
    "--output-filename",
    "--output-format",
    "-c",
    "--conf",
    "--adapter",
    "-e",
    "--adapter-ip",
    "--adapter-port",
    "--adapter-mac",
    "--router-mac",
    "--top-ports",
    "--source-ip",
    "--source-port",
    "--readscan",
    "--shards",
    "--seed",
    "--ttl",
    "--wait",
    "--retries",
];
const HPING_VALUED: &[&str] = &[
    "-c",
    "--count",
    "-i",
    "--interval",
    "-p",
    "--destport",
    "-s",
    "--baseport",
    "-a",
    "--spoof",
    "-t",
    "--ttl",
    "-d",
    "--data",
    "-E",
    "--file",
    "-I",
    "--interface",
    "-8",
    "--scan",
    "-w",
    "--win",
    "-M",
    "--setseq",
    "-L",
    "--setack",
    "-o",
    "--tos",
    "-N",
    "--id",
    "-H",
    "--ipproto",
    "-O",
    "--tcpoff",
    "-g",
    "--fragoff",
    "-m",
    "--mtu",
    "-e",
    "--sign",
    "-K",
    "--icmpcode",
    "-C",
    "--icmptype",
];

/// The words of `cmd` that are neither options nor the values of the
/// options in `valued` (a long option's `=value` is part of its word).
fn targets<'c>(cmd: &'c Command, valued: &[&str]) -> Vec<&'c str> {
    let mut out = Vec::new();
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        if valued.contains(&arg.as_str()) {
            iter.next();
        } else if !arg.starts_with('-') {
            out.push(arg.as_str());
        }
    }
    out
}

/// Whether a scanner's target is another machine: a host name or address
/// that is not this one, a range, or a list read from a file.
fn elsewhere(target: &str) -> bool {
    let host = target
        .split_once("://")
        .map_or(target, |(_, rest)| rest)
        .split(['/', ','])
        .next()
        .unwrap_or(target);
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if !h.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    };
    // A range or list (`10.0.0.1-254`, `a,b`) is more than one machine.
    !is_loopback(host) || target.contains(',') || target.contains('/') && !target.contains("://")
}

/// A scan reaches other machines: a target that is not this one, or
/// targets read from a file or made up (`-iL`, `-iR`).
fn scans_elsewhere(cmd: &Command) -> bool {
    if only_info(cmd) {
        return false;
    }
    let (valued, lists): (&[&str], &[&str]) = match cmd.program.as_str() {
        "nmap" => (NMAP_VALUED, &["-iL", "-iR"]),
        "masscan" => (MASSCAN_VALUED, &["-iL", "--includefile"]),
        "hping3" | "hping" => (HPING_VALUED, &[]),
        _ => (&[], &[]),
    };
    has_option(cmd, lists, "")
        || targets(cmd, valued)
            .iter()
            .any(|t| elsewhere(t) && !(cmd.program == "masscan" && is_capture_file(t)))
}

/// nmap's options that hide where a scan comes from or slip it past an
/// intrusion detector: decoys, a spoofed source, fragments, padding,
/// bounce and idle scans, proxies, crafted headers.
#[rustfmt::skip]
const NMAP_EVASIVE: &[&str] = &[
    "-D", "-S", "-g", "--source-port", "-f", "--mtu", "--data-length", "--data", "--data-string",
    "--spoof-mac", "-sI", "-b", "--proxies", "--badsum", "--ip-options", "--ttl",
];
/// Script categories nmap's authors mark as neither intrusive nor noisy,
/// and the words that join them (`"default and safe"`).
const NMAP_SAFE_SCRIPTS: &[&str] = &["default", "safe", "version", "and"];

/// An nmap call that is more than checking one named machine: a target
/// list, a range or several hosts, every port (`-p-`, a range wider than
/// the 1,024 well-known ports), an evasive or stealthy option, or scripts
/// beyond the default and safe categories. Checking one host's ports,
/// services and default scripts (`nmap -sV -p 22,443 example.com`) is how
/// people see what a server of theirs exposes.
fn nmap_scans(cmd: &Command) -> bool {
    if only_info(cmd) {
        return false;
    }
    let remote: Vec<&str> = targets(cmd, NMAP_VALUED)
        .into_iter()
        .filter(|t| elsewhere(t))
        .collect();
    if has_option(cmd, &["-iL", "-iR"], "") {
        return true;
    }
    let Some(first) = remote.first() else {
        return false;
    };
    remote.len() > 1
        || !one_host(first)
        || has_option(cmd, NMAP_EVASIVE, "")
        || cmd.args.iter().any(|a| {
            matches!(
                a.as_str(),
                "-T0" | "-T1" | "-Tparanoid" | "-Tsneaky" | "-ff"
            )
        })
        || value_of(cmd, &["-p"]).is_some_and(wide_ports)
        || value_of(cmd, &["--top-ports"]).is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 1000))
        || cmd
            .args
            .iter()
            .any(|a| a.len() > 2 && a.starts_with("-p") && wide_ports(&a[2..]))
        || value_of(cmd, &["--script"]).is_some_and(|s| {
            s.split([' ', ',', '(', ')'])
                .filter(|w| !w.is_empty())
                .any(|w| !NMAP_SAFE_SCRIPTS.contains(&w))
        })
}

/// A target that names one machine: no list, prefix, wildcard or octet range.
fn one_host(target: &str) -> bool {
    let ipv4_range = target.contains('-')
        && target
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    !(target.contains([',', '/', '*']) || ipv4_range)
}

/// A port list that sweeps: every port (`-`, `1-`) or a range wider than
/// the well-known ports.
fn wide_ports(list: &str) -> bool {
    list.split(',').any(|part| {
        let part = part.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == ':');
        match part.split_once('-') {
            Some((low, high)) => {
                let low = if low.is_empty() {
                    Some(0)
                } else {
                    low.parse::<u32>().ok()
                };
                let high = if high.is_empty() {
                    Some(65535)
                } else {
                    high.parse::<u32>().ok()
                };
                low.zip(high)
                    .is_none_or(|(l, h)| h.saturating_sub(l) > 1024)
            }
            None => false,
        }
    })
}

/// The value of the first of `options` (`-a x`, `-a=x`, `--url=x`).
fn value_of<'c>(cmd: &'c Command, options: &[&str]) -> Option<&'c str> {
    let mut iter = cmd.args.iter();
    while let Some(arg) = iter.next() {
        for o in options {
            if arg == o {
                return iter.next().map(String::as_str);
            }
            if let Some(v) = arg.strip_prefix(o).and_then(|r| r.strip_prefix('=')) {
                return Some(v);
            }
        }
    }
    None
}

/// A scanner whose target is an option's value (`rustscan -a`, `nikto
/// -h`, `gobuster -u`): asked unless that target is this machine.
fn option_target_elsewhere(cmd: &Command) -> bool {
    let options: &[&str] = match cmd.program.as_str() {
        "rustscan" => &["-a", "--addresses"],
        "nikto" => &["-h", "-host", "--host"],
        "naabu" => &["-host", "-l", "-list"],
        "gobuster" | "ffuf" | "feroxbuster" | "nuclei" | "sqlmap" | "wpscan" => {
            &["-u", "--url", "-target", "-l", "-list"]
        }
        _ => &[],
    };
    match value_of(cmd, options) {
        Some(target) => elsewhere(target),
        // No target option: an operand (`dirb URL`, `wfuzz ... URL`) or
        // none at all (a subcommand's own help or version).
        None => targets(cmd, &["-w", "-o", "-c", "-H", "-b", "-x", "-t", "-z", "-d"])
            .iter()
            .any(|t| t.contains("://") && elsewhere(t)),
    }
}

/// `nc -z HOST LOW-HIGH`: a port range swept on another machine.
fn nc_sweeps(cmd: &Command) -> bool {
    let zero_io = cmd
        .args
        .iter()
        .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('z'));
    let words = targets(cmd, &["-w", "-p", "-s", "-i", "-q", "-x", "-X", "-e", "-c"]);
    let range = |w: &&str| {
        w.split_once('-').is_some_and(|(a, b)| {
            !a.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        })
    };
    zero_io && words.iter().any(range) && words.first().is_some_and(|h| elsewhere(h))
}

/// `fping -g`: a ping sweep of a range, or of hosts listed in a file.
fn fping_sweeps(cmd: &Command) -> bool {
    has_option(cmd, &["-g", "--generate", "-f", "--file"], "aAdeunqsv")
}

/// Port and host scanners and web content brute-forcers pointed at other
/// machines.
#[rustfmt::skip]
static SCAN: &[Verb] = &[
    verb_if("nmap", "", nmap_scans),
    verb_if("masscan", "", scans_elsewhere),
    verb_if("hping3", "", scans_elsewhere),
    verb_if("hping", "", scans_elsewhere),
    verb_if("nping", "", scans_elsewhere),
    verb_if("zmap", "", |c| not_info(c) && !c.args.iter().any(|a| a == "-d" || a == "--dryrun")),
    verb_if("unicornscan", "", not_info),
    verb_if("rustscan", "", option_target_elsewhere),
    verb_if("naabu", "", option_target_elsewhere),
    verb_if("nikto", "", option_target_elsewhere),
    verb_if("gobuster", "", option_target_elsewhere),
    verb_if("ffuf", "", option_target_elsewhere),
    verb_if("feroxbuster", "", option_target_elsewhere),
    verb_if("nuclei", "", option_target_elsewhere),
    verb_if("wpscan", "", option_target_elsewhere),
    verb_if("dirb", "", option_target_elsewhere),
    verb_if("dirsearch", "", not_info),
    verb_if("wfuzz", "", option_target_elsewhere),
    // curl's URL globbing over a port range: `http://host:[1-1024]`.
    verb("curl", r"://[^/ \t]+:\[[0-9]+-[0-9]+\]"),
    verb_if("nc", "", nc_sweeps),
    verb_if("ncat", "", nc_sweeps),
    verb_if("netcat", "", nc_sweeps),
    // Sweeps of the local network.
    verb_if("arp-scan", "", not_info),
    verb_if("netdiscover", "", not_info),
    verb_if("nbtscan", "", not_info),
    verb_if("fping", "", fping_sweeps),
    verb_if("enum4linux", "", not_info),
    verb_if("enum4linux-ng", "", not_info),
    verb_if("whatweb", "", scans_elsewhere),
    verb_if("sqlmap", "", option_target_elsewhere),
    // Passwords guessed against other machines' logins.
    verb_if("hydra", "", not_info),
    verb_if("medusa", "", not_info),
    verb_if("ncrack", "", not_info),
    verb_if("crackmapexec", "", not_info),
    verb_if("netexec", "", not_info),
    verb_if("nxc", "", not_info),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "capture.sniff",
        category: "capture or intercept network traffic",
        reason: "a live capture or an interception sees every connection on the interface: other people's traffic, session cookies and passwords sent in the clear",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SNIFF),
        hits: &["sudo tcpdump -i eth0", "tcpdump -nn -i en0 port 443", "tcpdump host 10.0.0.5", "tshark -i any -w out.pcapng", "tshark -f 'port 53'", "dumpcap -i eth0", "ngrep -d any password", "tcpflow -i eth0 -c", "ettercap -T -M arp:remote /10.0.0.1// /10.0.0.2//", "bettercap -iface eth0", "arpspoof -i eth0 -t 10.0.0.5 10.0.0.1", "responder -I eth0", "termshark -i eth0", "rvictl -s 00008030-001A"],
        misses: &["tcpdump -r capture.pcap", "tcpdump -nnr dump.pcap port 53", "tcpdump -D", "tcpdump --version", "tshark -r trace.pcapng -Y http", "tshark -D", "ngrep -I capture.pcap GET", "tcpflow -r capture.pcap", "wireshark capture.pcap", "termshark capture.pcap", "rvictl -l", "bettercap --version"],
    },
    Rule {
        id: "capture.scan",
        category: "scan other machines' ports or web paths",
        reason: "a scan of other machines probes hosts that may not be the user's, sets off intrusion alarms and can break fragile services",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(SCAN),
        hits: &["nmap -sS 192.168.1.0/24", "nmap -p- 10.0.0.5", "nmap -Pn -p 22,80 10.0.0.1-254", "nmap -A -iL targets.txt", "masscan 10.0.0.0/8 -p80 --rate 10000", "zmap -p 443 10.0.0.0/8", "rustscan -a 10.0.0.5", "nc -zv 10.0.0.5 1-1024", "hping3 --scan 1-1000 -S 10.0.0.5", "arp-scan --localnet", "fping -g 192.168.1.0/24", "nikto -h http://10.0.0.5", "gobuster dir -u http://target.example -w w.txt", "dirb http://10.0.0.5", "nmap -sC -p 1-65535 example.com", "sudo nmap -D 10.0.0.9,ME example.com", "nmap --script vuln example.com", "nmap -sV example.com example.org", "sudo nmap -T1 -sS example.com"],
        misses: &["nmap --version", "nmap -sV -p 22,443 example.com", "nmap --script 'default and safe' example.com", "sudo nmap -A -T4 scanme.nmap.org", "nmap -v1 build-01.internal", "nmap -sV localhost", "nmap -p 8080 127.0.0.1", "nc -zv localhost 5432", "nc -vz db.internal 5432", "masscan --readscan scan.bin", "fping example.com", "ffuf -u http://localhost:3000/FUZZ -w words.txt", "zmap --version", "ping -c 3 example.com"],
    },
];
