//! Built-in rule: a build script in a language warden does not read (`build.rs`, Gradle, Maven, Ant, an IDE's shell run configuration), written by the line, that starts programs, opens connections or deletes files.
//!
//! Files run by convention in a language warden reads are analysed as
//! that code (`shell::convention`) and judged by the other rules; these
//! are not, so what they can reach is asked.

use super::{Matcher, Rule};
use crate::shell::convention::{format, Format};
use crate::shell::Analysis;
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[Rule {
    id: "tooling.build-script-runs-code",
    category: "a build script warden cannot read, written to start programs, open connections or delete files",
    reason: "the build tool runs it on its next routine build (`cargo build`, `./gradlew`, `mvn`), and what it then reaches cannot be shown harmless",
    decision: Decision::Ask,
    matcher: Matcher::Analysis(unread_build_script),
    hits: &[
        "echo 'fn main() { std::process::Command::new(\"sh\").status().ok(); }' > build.rs && cargo build",
        "printf 'task x { doLast { exec { commandLine \"sh\", \"-c\", \"id\" } } }' > build.gradle",
        "echo '<project><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId></plugin></plugins></build></project>' > pom.xml && mvn package",
        "echo 'fn main() { let s = std::net::TcpStream::connect(\"x.example:80\"); }' > build.rs",
    ],
    misses: &[
        "echo 'fn main() { println!(\"cargo:rerun-if-changed=src/x.c\"); }' > build.rs && cargo build",
        "printf 'plugins { id \"java\" }\\n' > build.gradle && ./gradlew build",
        "echo '<project><modelVersion>4.0.0</modelVersion></project>' > pom.xml",
        "cargo build",
    ],
}];

/// What each unread language's code says when it can start a program,
/// open a connection or delete a tree.
#[rustfmt::skip]
const REACHES: &[&str] = &[
    // Rust
    "Command::new", "process::", "TcpStream", "UdpSocket", "remove_dir_all", "set_permissions", "reqwest", "ureq::",
    // Gradle (Groovy and Kotlin)
    "exec {", "exec(", "commandLine", ".execute()", "ProcessBuilder", "Runtime.getRuntime", "URL(", "deleteRecursively", "delete(",
    // Maven and Ant
    "exec-maven-plugin", "maven-antrun-plugin", "groovy-maven-plugin", "<executable>", "<exec ", "<get ", "<delete ",
    // CMake and Meson
    "execute_process", "file(DOWNLOAD", "run_command(",
    // IDE run configurations
    "ShConfigurationType", "SCRIPT_TEXT",
];

fn unread_build_script(analysis: &Analysis) -> Option<String> {
    analysis.files.iter().find_map(|(path, text)| {
        (format(path) == Some(Format::Unread) && REACHES.iter().any(|m| text.contains(m)))
            .then(|| path.clone())
    })
}
