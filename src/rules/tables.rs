//! The built-in rule tables in evaluation order: the floor, the sudo guard and the dangerous tables, each one file's rules under its id group.

use super::{Rule, Table};

/// The unbypassable floor: every rule blocks.
pub static HARDLINE: Table = Table {
    file: "hardline",
    group: "hardline",
    rules: super::hardline::RULES,
};

/// PID 1 signalled and the machine powered off by other roads than
/// `shutdown`: part of the floor, beside the other power rules.
pub static POWER: Table = Table {
    file: "processes",
    group: "hardline",
    rules: super::processes::FLOOR,
};

/// Secrets sent off the machine: part of the floor, in a file of their own.
/// The ids keep the `net.` group they have had since they lived in `net.rs`.
pub static EXFILTRATION: Table = Table {
    file: "secrets",
    group: "net",
    rules: super::secrets::RULES,
};

/// Secrets followed through a line to the network (pipes, `$( )`, temp
/// files, DNS names, git pushes, interpreters): part of the floor, in the
/// `net.` group beside the rules above.
pub static LEAKS: Table = Table {
    file: "leak",
    group: "net",
    rules: super::leak::RULES,
};

/// Interpreter code that runs what it fetches (`exec(urlopen(URL).read())`):
/// part of the floor, its ids in the `exec.` group beside the interpreter's asks.
pub static FETCHED: Table = Table {
    file: "exec_interp",
    group: "exec",
    rules: super::exec_interp::FLOOR,
};

/// Network content run as code: part of the floor, in the `net.` group
/// beside the rules that ask about what merely might run it.
pub static REMOTE_CODE: Table = Table {
    file: "net",
    group: "net",
    rules: super::net::FLOOR,
};

/// `sudo -S` without a configured password: the agent would be guessing one.
pub static SUDO_GUARD: Table = Table {
    file: "system",
    group: "sudo",
    rules: super::system::SUDO_GUARD,
};

/// Built-in dangerous rules, which ask. Earlier tables win when two rules
/// match the same command.
pub static DANGEROUS: &[Table] = &[
    Table {
        file: "fs",
        group: "fs",
        rules: super::fs::RULES,
    },
    // Writes are deletions' neighbours for a user: one group, two files.
    Table {
        file: "fs_write",
        group: "fs",
        rules: super::fs_write::RULES,
    },
    Table {
        file: "git",
        group: "git",
        rules: super::git::RULES,
    },
    // Before `system`: a run level left is more than a service stopped,
    // and the message should say so.
    Table {
        file: "processes",
        group: "processes",
        rules: super::processes::RULES,
    },
    // Before `system`: stopping a security agent, a logger or time sync is
    // judged for what the service does, not as any service stopped.
    Table {
        file: "security",
        group: "security",
        rules: super::security::RULES,
    },
    Table {
        file: "logs",
        group: "logs",
        rules: super::logs::RULES,
    },
    Table {
        file: "trust",
        group: "trust",
        rules: super::trust::RULES,
    },
    Table {
        file: "system",
        group: "system",
        rules: super::system::RULES,
    },
    Table {
        file: "storage",
        group: "storage",
        rules: super::storage::RULES,
    },
    Table {
        file: "containers",
        group: "containers",
        rules: super::containers::RULES,
    },
    Table {
        file: "cloud",
        group: "cloud",
        rules: super::cloud::RULES,
    },
    Table {
        file: "db",
        group: "db",
        rules: super::db::RULES,
    },
    Table {
        file: "net",
        group: "net",
        rules: super::net::RULES,
    },
    // Look-alike hosts, wherever a program is pointed at one.
    Table {
        file: "url",
        group: "net",
        rules: super::url::RULES,
    },
    // Credential variables in a request body or URL, where only a person who
    // knows the host can tell use from theft.
    Table {
        file: "leak",
        group: "net",
        rules: super::leak::ASK,
    },
    Table {
        file: "exec",
        group: "exec",
        rules: super::exec::RULES,
    },
    // Interpreter code's side doors are exec's: one group, two files.
    Table {
        file: "exec_interp",
        group: "exec",
        rules: super::exec_interp::RULES,
    },
    Table {
        file: "windows",
        group: "windows",
        rules: super::windows::RULES,
    },
    // Cloud access and audit, and what clusters, secret stores and remote
    // storage hold: the cloud's, beside cloud.rs's deletes.
    Table {
        file: "cloud_access",
        group: "cloud",
        rules: super::cloud_access::RULES,
    },
    Table {
        file: "cloud_data",
        group: "cloud",
        rules: super::cloud_data::RULES,
    },
    // Databases emptied through their frameworks and tools, beside db.rs's SQL.
    Table {
        file: "db_admin",
        group: "db",
        rules: super::db_admin::RULES,
    },
    Table {
        file: "services",
        group: "services",
        rules: super::services::RULES,
    },
    Table {
        file: "kernel",
        group: "kernel",
        rules: super::kernel::RULES,
    },
    Table {
        file: "processes",
        group: "processes",
        rules: super::processes::SESSION_RULES,
    },
    Table {
        file: "exhaustion",
        group: "exhaustion",
        rules: super::exhaustion::RULES,
    },
    Table {
        file: "agents",
        group: "agents",
        rules: super::agents::RULES,
    },
    Table {
        file: "credentials",
        group: "credentials",
        rules: super::credentials::RULES,
    },
    Table {
        file: "reveal",
        group: "reveal",
        rules: super::reveal::RULES,
    },
    Table {
        file: "tooling",
        group: "tooling",
        rules: super::tooling::RULES,
    },
    Table {
        file: "capture",
        group: "capture",
        rules: super::capture::RULES,
    },
    Table {
        file: "exposure",
        group: "exposure",
        rules: super::exposure::RULES,
    },
    Table {
        file: "remote",
        group: "remote",
        rules: super::remote::RULES,
    },
    Table {
        file: "perms",
        group: "perms",
        rules: super::perms::RULES,
    },
    // Containers as a way out to the host: the container group, a file of
    // its own beside containers.rs.
    Table {
        file: "escape",
        group: "containers",
        rules: super::escape::RULES,
    },
    Table {
        file: "vcs",
        group: "vcs",
        rules: super::vcs::RULES,
    },
    Table {
        file: "packages",
        group: "packages",
        rules: super::packages::RULES,
    },
    // Where an install's code comes from, beside what a removal takes away.
    Table {
        file: "package_sources",
        group: "packages",
        rules: super::package_sources::RULES,
    },
    Table {
        file: "admin",
        group: "admin",
        rules: super::admin::RULES,
    },
    // After admin, whose user and password rules say more about the
    // commands both tables know.
    Table {
        file: "accounts",
        group: "accounts",
        rules: super::accounts::RULES,
    },
    // Last but one: a command run as root is judged here only when no rule
    // with a model of it has spoken.
    Table {
        file: "privileged",
        group: "privileged",
        rules: super::privileged::RULES,
    },
    // Code of a language warden does not read, asked about only when no
    // rule with a model of the command (a login item, a power request) has spoken.
    Table {
        file: "exec_unread",
        group: "exec",
        rules: super::exec_unread::RULES,
    },
    // Last: a text handed to an unmodelled program is judged only when no
    // rule with a model of the command has spoken.
    Table {
        file: "hidden",
        group: "exec",
        rules: super::hidden::RULES,
    },
];

/// The tables of the unbypassable floor, in evaluation order.
pub static FLOOR: [&Table; 6] = [
    &HARDLINE,
    &POWER,
    &EXFILTRATION,
    &LEAKS,
    &FETCHED,
    &REMOTE_CODE,
];

/// Every table, in evaluation order.
pub fn tables() -> impl Iterator<Item = &'static Table> {
    FLOOR.into_iter().chain([&SUDO_GUARD]).chain(DANGEROUS)
}

/// The unbypassable floor: every rule blocks.
pub fn hardline() -> impl Iterator<Item = &'static Rule> {
    FLOOR.into_iter().flat_map(|t| t.rules)
}

/// `sudo -S` without a configured password.
pub fn sudo_guard() -> &'static [Rule] {
    SUDO_GUARD.rules
}

/// Built-in dangerous rules, in table order.
pub fn dangerous() -> impl Iterator<Item = &'static Rule> {
    DANGEROUS.iter().flat_map(|t| t.rules)
}

/// Every built-in rule, in evaluation order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    tables().flat_map(|t| t.rules)
}
