//! Built-in rules: databases (SQL DROP/DELETE/TRUNCATE reaching a client, redis flushes, dropdb, MongoDB drops).

use once_cell::sync::Lazy;
use regex::Regex;

use super::{program_in, Matcher, Rule};
use crate::shell::Command;
use crate::verdict::Decision;

/// Database clients that run SQL given inline or on stdin.
const SQL_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "duckdb",
    "clickhouse-client",
    "clickhouse",
    "cockroach",
    "sqlcmd",
    "usql",
    "cqlsh",
];

/// Programs a SQL statement becomes when typed straight at the shell.
const SQL_AS_COMMAND: &[&str] = &["drop", "delete", "truncate", "alter"];

/// Both of the above, and InfluxDB 1.x's shell (`influx -execute`, whose
/// stdin is line protocol, not statements): what the SQL rules look at.
pub(super) const SQL_PROGRAMS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "duckdb",
    "clickhouse-client",
    "clickhouse",
    "cockroach",
    "sqlcmd",
    "usql",
    "cqlsh",
    "influx",
    "drop",
    "delete",
    "truncate",
    "alter",
];

pub static RULES: &[Rule] = &[
    Rule {
        id: "db.sql-drop",
        category: "SQL DROP",
        reason: "it permanently removes a database object and all the data in it",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: SQL_PROGRAMS,
            check: sql_drop,
        },
        hits: &[
            "DROP TABLE users;",
            "echo 'DROP TABLE users;' | psql mydb",
            "psql -c \"DROP DATABASE shop\"",
            "mysql -u root -e 'drop schema if exists app'",
            "psql -d app -c \"ALTER TABLE users DROP COLUMN email\"",
        ],
        misses: &[
            "psql -c \"SELECT * FROM audit WHERE action = 'DROP TABLE'\"",
            "grep -r 'DROP TABLE' .",
            "echo \"DROP TABLE users\" > migration.sql",
            "psql -c \"ALTER TABLE users DROP CONSTRAINT fk_x\"",
            "psql -c \"SELECT 1 -- DROP TABLE users\"",
        ],
    },
    Rule {
        id: "db.sql-delete-all",
        category: "SQL DELETE without WHERE",
        reason: "it deletes every row of the table",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: SQL_PROGRAMS,
            check: sql_delete_all,
        },
        hits: &[
            "DELETE FROM users",
            "sqlite3 app.db 'DELETE FROM users'",
            "mysql -e \"delete from sessions where 1=1\"",
            "psql app <<'SQL'\nDELETE FROM carts;\nSQL",
        ],
        misses: &[
            "sqlite3 app.db \"DELETE FROM sessions WHERE expires_at < date('now')\"",
            "echo \"DELETE FROM users\" > query.sql",
            "psql -c \"SELECT count(*) FROM users\"",
        ],
    },
    Rule {
        id: "db.sql-truncate",
        category: "SQL TRUNCATE",
        reason: "it empties the table at once, with no rows left to recover",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: SQL_PROGRAMS,
            check: sql_truncate,
        },
        hits: &[
            "TRUNCATE TABLE users",
            "psql -c 'TRUNCATE orders CASCADE'",
            "clickhouse-client --query \"TRUNCATE TABLE events\"",
        ],
        misses: &[
            "truncate -s 0 data/app.db",
            "psql -c \"SELECT 'truncate'\"",
            "echo TRUNCATE",
        ],
    },
    Rule {
        id: "db.redis-flush",
        category: "redis FLUSHALL/FLUSHDB (deletes every key)",
        reason: "it deletes every key in the database or the whole server",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: &["redis-cli", "valkey-cli", "keydb-cli"],
            check: redis_flush,
        },
        hits: &[
            "redis-cli FLUSHALL",
            "redis-cli -h cache -n 2 flushdb async",
            "echo FLUSHALL | redis-cli",
        ],
        misses: &[
            "redis-cli GET flushall",
            "redis-cli INFO keyspace",
            "redis-cli --scan --pattern 'flushall*'",
        ],
    },
    Rule {
        id: "db.dropdb",
        category: "drop a database (dropdb, mysqladmin drop)",
        reason: "it permanently removes a whole database",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: &["dropdb", "mysqladmin"],
            check: drop_database,
        },
        hits: &[
            "dropdb mydb",
            "dropdb -h prod -U admin shop",
            "mysqladmin -u root drop shop",
        ],
        misses: &["createdb app", "dropdb --help", "mysqladmin status"],
    },
    Rule {
        id: "db.mongo-drop",
        category: "MongoDB drop or delete-all",
        reason: "it removes a database or collection, or every document in one",
        decision: Decision::Ask,
        matcher: Matcher::Check {
            programs: &["mongo", "mongosh"],
            check: mongo_drop,
        },
        hits: &[
            "mongosh shop --eval 'db.dropDatabase()'",
            "mongo app --eval \"db.users.drop()\"",
            "echo 'db.sessions.deleteMany({})' | mongosh app",
        ],
        misses: &[
            "mongosh --eval 'db.users.find()'",
            "mongosh app --eval 'db.sessions.deleteMany({expired: true})'",
        ],
    },
];

/// Values of the options that carry inline SQL (`-c SQL`, `-cSQL`,
/// `--command SQL`, `--command=SQL`).
fn option_values<'a>(args: &'a [String], shorts: &[&str], longs: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if shorts.contains(&arg) || longs.contains(&arg) {
            out.extend(args.get(i + 1).map(String::as_str));
            i += 1;
        } else if let Some(v) = longs
            .iter()
            .find_map(|l| arg.strip_prefix(l).and_then(|r| r.strip_prefix('=')))
        {
            out.push(v);
        } else if let Some(v) = shorts.iter().filter(|s| s.len() == 2).find_map(|s| {
            arg.strip_prefix(s)
                .filter(|r| !r.is_empty() && !arg.starts_with("--"))
        }) {
            out.push(v);
        }
        i += 1;
    }
    out
}

/// SQL operands of sqlite3/duckdb: everything after the database file.
fn sqlite_operands(args: &[String]) -> Vec<&str> {
    const VALUED: &[&str] = &[
        "-cmd",
        "-separator",
        "-newline",
        "-nullvalue",
        "-init",
        "-vfs",
        "-maxsize",
        "-mmap",
        "-lookaside",
        "-pagecache",
        "-heap",
        "-escape",
        "-c",
        "-s",
    ];
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let single = arg
            .strip_prefix('-')
            .map(|a| format!("-{}", a.trim_start_matches('-')));
        match single {
            Some(opt) if VALUED.contains(&opt.as_str()) => i += 1,
            Some(_) if arg.len() > 1 => {}
            _ => operands.push(arg),
        }
        i += 1;
    }
    operands.into_iter().skip(1).collect()
}

/// The SQL a command would run, as far as its command line shows it.
fn sql_texts(cmd: &Command) -> Vec<String> {
    let args = &cmd.args;
    let mut out: Vec<String> = match cmd.program.as_str() {
        "truncate" if args.iter().any(|a| a.starts_with('-')) => return Vec::new(),
        p if SQL_AS_COMMAND.contains(&p) => return vec![format!("{p} {}", cmd.arg_line())],
        "psql" | "usql" => option_values(args, &["-c"], &["--command"])
            .into_iter()
            .map(String::from)
            .collect(),
        "mysql" | "mariadb" | "cockroach" => option_values(args, &["-e"], &["--execute"])
            .into_iter()
            .map(String::from)
            .collect(),
        "clickhouse-client" | "clickhouse" => option_values(args, &["-q"], &["--query"])
            .into_iter()
            .map(String::from)
            .collect(),
        "cqlsh" => option_values(args, &["-e"], &["--execute"])
            .into_iter()
            .map(String::from)
            .collect(),
        "influx" => option_values(args, &["-execute"], &[])
            .into_iter()
            .map(String::from)
            .collect(),
        "sqlcmd" => option_values(args, &["-Q", "-q"], &[])
            .into_iter()
            .map(String::from)
            .collect(),
        "sqlite3" | "sqlite" | "duckdb" => option_values(args, &["-cmd", "--cmd", "-c"], &[])
            .into_iter()
            .chain(sqlite_operands(args))
            .map(String::from)
            .collect(),
        _ => Vec::new(),
    };
    if program_in(&cmd.program, SQL_CLIENTS) {
        out.extend(cmd.stdin.clone());
    }
    out
}

/// Lowercased SQL with string literals, quoted identifiers and comments
/// emptied, so words inside them cannot look like statements.
fn strip_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                while let Some(d) = chars.next() {
                    if d == c {
                        // A doubled quote is an escaped one inside the literal.
                        if chars.peek() == Some(&c) {
                            chars.next();
                            continue;
                        }
                        break;
                    }
                }
                out.push_str("''");
            }
            '-' if chars.peek() == Some(&'-') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
                out.push('\n');
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                skip_past(&mut chars, '*', '/');
                out.push(' ');
            }
            '$' if chars.peek() == Some(&'$') => {
                chars.next();
                skip_past(&mut chars, '$', '$');
                out.push_str("''");
            }
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Each statement of each SQL text as a list of words.
pub(super) fn statements(cmd: &Command) -> Vec<Vec<String>> {
    sql_texts(cmd)
        .iter()
        .flat_map(|text| {
            strip_sql(text)
                .split(';')
                .map(|s| {
                    s.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
                        .filter(|w| !w.is_empty())
                        .map(String::from)
                        .collect::<Vec<_>>()
                })
                .filter(|words| !words.is_empty())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn is_drop(words: &[String]) -> bool {
    match words.first().map(String::as_str) {
        Some("drop") => words.len() > 1,
        Some("alter") => words.windows(2).any(|w| {
            w[0] == "drop"
                && !matches!(
                    w[1].as_str(),
                    "constraint"
                        | "index"
                        | "key"
                        | "default"
                        | "not"
                        | "primary"
                        | "foreign"
                        | "check"
                        | "trigger"
                        | "identity"
                        | "expression"
                        | "owned"
                )
        }),
        _ => false,
    }
}

fn is_delete_all(words: &[String]) -> bool {
    if words.first().map(String::as_str) != Some("delete") || !words.iter().any(|w| w == "from") {
        return false;
    }
    match words.iter().position(|w| w == "where") {
        None => true,
        // A condition that is always true deletes every row just the same.
        Some(i) => matches!(
            words[i + 1..].join(" ").as_str(),
            "" | "1=1" | "1 = 1" | "true" | "1" | "''=''" | "'' = ''"
        ),
    }
}

fn is_truncate(words: &[String]) -> bool {
    words.first().map(String::as_str) == Some("truncate") && words.len() > 1
}

fn sql_drop(cmd: &Command) -> bool {
    statements(cmd).iter().any(|s| is_drop(s))
}

fn sql_delete_all(cmd: &Command) -> bool {
    statements(cmd).iter().any(|s| is_delete_all(s))
}

fn sql_truncate(cmd: &Command) -> bool {
    statements(cmd).iter().any(|s| is_truncate(s))
}

/// The redis commands `cmd` sends, each as its words: the one on its
/// command line (from the first word that is not an option or an option's
/// value), or else each line of what it reads on stdin.
pub(super) fn redis_commands(cmd: &Command) -> Vec<Vec<&str>> {
    const VALUED: &[&str] = &[
        "-h",
        "-p",
        "-s",
        "-a",
        "-u",
        "-n",
        "-r",
        "-i",
        "-d",
        "-D",
        "--user",
        "--pass",
        "--sni",
        "--cacert",
        "--cacertdir",
        "--cert",
        "--key",
        "--pattern",
        "--count",
        "--eval",
        "--tls-ciphers",
        "--tls-ciphersuites",
    ];
    let mut i = 0;
    while i < cmd.args.len() {
        let arg = cmd.args[i].as_str();
        if VALUED.contains(&arg) {
            i += 2;
            continue;
        }
        if !arg.starts_with('-') {
            return vec![cmd.args[i..].iter().map(String::as_str).collect()];
        }
        i += 1;
    }
    cmd.stdin
        .as_deref()
        .map(|text| {
            text.lines()
                .map(|line| line.split_whitespace().collect::<Vec<_>>())
                .filter(|words| !words.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn redis_flush(cmd: &Command) -> bool {
    let is_flush =
        |w: &str| w.eq_ignore_ascii_case("flushall") || w.eq_ignore_ascii_case("flushdb");
    redis_commands(cmd)
        .iter()
        .any(|words| words.first().is_some_and(|w| is_flush(w)))
}

fn drop_database(cmd: &Command) -> bool {
    match cmd.program.as_str() {
        "dropdb" => !cmd
            .args
            .iter()
            .any(|a| matches!(a.as_str(), "--help" | "-?" | "--version" | "-V")),
        // mysqladmin: the first word that is not an option or an option's value.
        _ => {
            const VALUED: &[&str] = &[
                "-u", "-h", "-P", "-S", "--user", "--host", "--port", "--socket",
            ];
            let mut args = cmd.args.iter();
            while let Some(arg) = args.next() {
                if VALUED.contains(&arg.as_str()) {
                    args.next();
                } else if !arg.starts_with('-') {
                    return arg.eq_ignore_ascii_case("drop");
                }
            }
            false
        }
    }
}

// A bad pattern is caught by the rule tests; at run time the rule then never matches.
static MONGO_DROP: Lazy<Option<Regex>> = Lazy::new(|| {
    Regex::new(
        r"(?i)dropDatabase\s*\(|\.drop\s*\(\s*\)|\.(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\)",
    )
    .ok()
});

fn mongo_drop(cmd: &Command) -> bool {
    let eval = option_values(&cmd.args, &[], &["--eval"]);
    eval.into_iter()
        .chain(cmd.stdin.as_deref())
        .any(|js| MONGO_DROP.as_ref().is_some_and(|re| re.is_match(js)))
}

/// Consumes characters up to and including the two-character terminator
/// `first second` (`*/` of a comment, `$$` of a dollar-quoted body).
fn skip_past(chars: &mut impl Iterator<Item = char>, first: char, second: char) {
    let mut prev = None;
    for d in chars {
        if prev == Some(first) && d == second {
            break;
        }
        prev = Some(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_comments_are_not_sql() {
        assert_eq!(
            strip_sql("SELECT 'DROP TABLE x' -- drop\n/* drop */ FROM t"),
            "select '' \n  from t"
        );
        assert_eq!(strip_sql("a 'it''s' b $$drop$$"), "a '' b ''");
    }

    #[test]
    fn sql_from_clients() {
        assert!(sql_drop(&Command::new(
            "psql",
            &["-d", "app", "-c", "DROP TABLE x"]
        )));
        assert!(sql_drop(&Command::new(
            "mysql",
            &["-uroot", "-eDROP DATABASE x"]
        )));
        assert!(sql_drop(&Command::new(
            "mysql",
            &["--execute=drop table t"]
        )));
        assert!(!sql_drop(&Command::new(
            "psql",
            &["-c", "SELECT 'DROP TABLE'"]
        )));
        assert!(sql_delete_all(&Command::new(
            "sqlite3",
            &["-bail", "app.db", "DELETE FROM users"]
        )));
        assert!(!sql_delete_all(&Command::new("sqlite3", &["DELETE.db"])));
        assert!(!sql_delete_all(&Command::new(
            "sqlite3",
            &["app.db", "DELETE FROM s WHERE id = 1"]
        )));
        let mut piped = Command::new("psql", &["mydb"]);
        piped.stdin = Some("DROP TABLE users;\n".into());
        assert!(sql_drop(&piped));
        assert!(!sql_drop(&Command::new(
            "psql",
            &["-c", "ALTER TABLE t DROP CONSTRAINT c"]
        )));
        assert!(sql_drop(&Command::new(
            "psql",
            &["-c", "alter table t drop column c"]
        )));
    }

    #[test]
    fn typed_sql_and_coreutils_truncate() {
        assert!(sql_truncate(&Command::new("truncate", &["TABLE", "users"])));
        assert!(!sql_truncate(&Command::new("truncate", &["-s", "0", "f"])));
        assert!(sql_delete_all(&Command::new("delete", &["FROM", "users"])));
        assert!(!sql_delete_all(&Command::new(
            "delete",
            &["FROM", "users", "WHERE", "id=1"]
        )));
    }

    #[test]
    fn redis() {
        assert!(redis_flush(&Command::new(
            "redis-cli",
            &["-n", "2", "FLUSHDB"]
        )));
        assert!(!redis_flush(&Command::new(
            "redis-cli",
            &["GET", "flushall"]
        )));
        let mut piped = Command::new("redis-cli", &[]);
        piped.stdin = Some("flushall\n".into());
        assert!(redis_flush(&piped));
    }
}
