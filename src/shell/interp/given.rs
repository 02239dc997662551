//! What interpreter code is given from outside its text: its arguments (`sys.argv[1]`, `process.argv[2]`, `$ARGV[0]`, `ARGV[0]`, `$argv[1]`, `arg[1]`, `ARGS[1]`, `os.Args[1]`) and the environment its command line sets (`os.environ['P']`, `process.env.P`, `$ENV{P}`), as the words of the command give them.
//!
//! `python3 -c "open(sys.argv[1], 'w')" ~/.config/warden/config.yaml` writes
//! the file its command line names: with the arguments known, the write is
//! judged where it lands, as `> FILE` would be.

use super::Lang;

/// The arguments and environment a command hands its code.
#[derive(Debug, Clone, Default)]
pub struct Given {
    /// Each way the language spells its argument list, as the text before
    /// the index (`sys.argv[`), with the list it indexes (`None` where the
    /// language's list has no word: Lua's `arg[0]` for inline code, the
    /// unused 0 of a list counted from 1).
    lists: Vec<(&'static str, Vec<Option<String>>)>,
    /// `NAME=value` set for the command.
    env: Vec<(String, String)>,
}

impl Given {
    /// What `lang` code run as `script` (`None`: inline code or stdin),
    /// with `args` after it and `env` set, is given.
    pub fn new(
        lang: Lang,
        script: Option<&str>,
        args: &[String],
        env: &[(String, String)],
    ) -> Given {
        let words = || args.iter().cloned().map(Some);
        let after = |first: Option<String>| -> Vec<Option<String>> {
            std::iter::once(first).chain(words()).collect()
        };
        let script = script.map(str::to_string);
        let lists: Vec<(&'static str, Vec<Option<String>>)> = match lang {
            // `python3 -c CODE a`: sys.argv is ['-c', 'a']; `python3 - a`: ['-', 'a'].
            Lang::Python => {
                let zero = Some(script.unwrap_or_else(|| "-c".to_string()));
                vec![("sys.argv[", after(zero.clone())), ("argv[", after(zero))]
            }
            // `node -e CODE a`: process.argv is [node, 'a']; a script comes second.
            Lang::Node => {
                let mut list = vec![Some("node".to_string())];
                list.extend(script.map(Some));
                list.extend(words());
                let plain: Vec<Option<String>> = words().collect();
                vec![
                    ("process.argv[", list.clone()),
                    ("Bun.argv[", list),
                    ("Deno.args[", plain),
                ]
            }
            Lang::Ruby => {
                let plain: Vec<Option<String>> = words().collect();
                vec![("ARGV[", plain.clone()), ("$*[", plain)]
            }
            Lang::Perl => vec![("$ARGV[", words().collect())],
            Lang::Php => {
                let zero = Some(script.unwrap_or_else(|| "Standard input code".to_string()));
                vec![
                    ("$argv[", after(zero.clone())),
                    ("$_SERVER['argv'][", after(zero)),
                ]
            }
            Lang::Lua => vec![("arg[", after(script))],
            Lang::Julia => vec![("ARGS[", after(None))],
            Lang::R => {
                let list = after(None);
                vec![
                    ("commandArgs(TRUE)[", list.clone()),
                    ("commandArgs(T)[", list.clone()),
                    ("commandArgs(trailingOnly=TRUE)[", list),
                ]
            }
            Lang::Go => vec![("os.Args[", after(Some("main".to_string())))],
            Lang::Tcl | Lang::Java => Vec::new(),
        };
        Given {
            lists,
            env: env.to_vec(),
        }
    }

    /// The value of `compact` (an expression with blanks removed and `"`
    /// read as `'`) when it is an argument or an environment variable the
    /// command gives: `sys.argv[1]`, `ARGV.first`, `os.environ['P']`.
    pub fn value(&self, compact: &str) -> Option<&str> {
        self.argument(compact).or_else(|| self.variable(compact))
    }

    fn argument(&self, compact: &str) -> Option<&str> {
        for (prefix, list) in &self.lists {
            if let Some(rest) = compact.strip_prefix(prefix) {
                let index = rest.strip_suffix(']')?;
                let at = match index.strip_prefix('-') {
                    // `sys.argv[-1]`: from the end.
                    Some(back) => list.len().checked_sub(back.parse::<usize>().ok()?)?,
                    None => index.parse::<usize>().ok()?,
                };
                return list.get(at)?.as_deref();
            }
        }
        // Ruby's `ARGV.first`, `ARGV.last`.
        let (_, ruby) = self.lists.iter().find(|(p, _)| *p == "ARGV[")?;
        match compact {
            "ARGV.first" => ruby.first()?.as_deref(),
            "ARGV.last" => ruby.last()?.as_deref(),
            _ => None,
        }
    }

    fn variable(&self, compact: &str) -> Option<&str> {
        if self.env.is_empty() {
            return None;
        }
        let name = env_name(compact)?;
        self.env
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The spellings of reading one environment variable: the text before the
/// name, and what may follow it (`'` then `)` or `,` for a default).
#[rustfmt::skip]
const ENV_READS: &[(&str, &[&str])] = &[
    ("os.environ['", &["']"]), ("environ['", &["']"]), ("os.environ.get('", &["')", "',"]),
    ("os.getenv('", &["')", "',"]), ("getenv('", &["')", "',"]), ("process.env.", &[""]),
    ("process.env['", &["']"]), ("Bun.env.", &[""]), ("ENV['", &["']"]), ("ENV.fetch('", &["')", "',"]),
    ("$ENV{'", &["'}"]), ("$ENV{", &["}"]), ("$_ENV['", &["']"]), ("$_SERVER['", &["']"]),
    ("Sys.getenv('", &["')", "',"]), ("os.Getenv('", &["')"]), ("Deno.env.get('", &["')"]),
];

/// The variable `compact` reads, if it is one of [`ENV_READS`].
fn env_name(compact: &str) -> Option<&str> {
    ENV_READS.iter().find_map(|(prefix, ends)| {
        let rest = compact.strip_prefix(prefix)?;
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let (name, tail) = rest.split_at(len);
        let ends_well = ends.iter().any(|e| {
            if e.is_empty() {
                tail.is_empty()
            } else {
                tail.starts_with(e) && (e.ends_with(',') || tail == *e)
            }
        });
        (!name.is_empty() && ends_well).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{read, Action, Reading};
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arguments_as_each_language_counts_them() {
        let args = words(&["a", "b"]);
        let cases: &[(Lang, Option<&str>, &str, Option<&str>)] = &[
            (Lang::Python, None, "sys.argv[1]", Some("a")),
            (Lang::Python, None, "sys.argv[0]", Some("-c")),
            (Lang::Python, Some("x.py"), "sys.argv[0]", Some("x.py")),
            (Lang::Python, None, "sys.argv[-1]", Some("b")),
            (Lang::Python, None, "sys.argv[3]", None),
            (Lang::Python, None, "sys.argv[i]", None),
            (Lang::Node, None, "process.argv[1]", Some("a")),
            (Lang::Node, Some("x.js"), "process.argv[2]", Some("a")),
            (Lang::Node, None, "Deno.args[0]", Some("a")),
            (Lang::Ruby, None, "ARGV[0]", Some("a")),
            (Lang::Ruby, None, "ARGV.last", Some("b")),
            (Lang::Perl, None, "$ARGV[1]", Some("b")),
            (Lang::Php, None, "$argv[1]", Some("a")),
            (Lang::Lua, None, "arg[0]", None),
            (Lang::Lua, None, "arg[2]", Some("b")),
            (Lang::Julia, None, "ARGS[1]", Some("a")),
            (Lang::R, None, "commandArgs(TRUE)[2]", Some("b")),
            (Lang::Go, None, "os.Args[1]", Some("a")),
        ];
        for &(lang, script, expr, want) in cases {
            let given = Given::new(lang, script, &args, &[]);
            assert_eq!(given.value(expr), want, "{lang:?} {expr}");
        }
    }

    #[test]
    fn variables_the_command_sets() {
        let env = vec![("P".to_string(), "/etc/x".to_string())];
        let given = Given::new(Lang::Python, None, &[], &env);
        for expr in [
            "os.environ['P']",
            "os.environ.get('P')",
            "os.environ.get('P','d')",
            "os.getenv('P')",
            "process.env.P",
            "process.env['P']",
            "$ENV{P}",
            "$ENV{'P'}",
            "ENV.fetch('P')",
        ] {
            assert_eq!(given.value(expr), Some("/etc/x"), "{expr}");
        }
        for expr in [
            "os.environ['PATH']",
            "process.env.PX",
            "os.environ['P'].strip()",
            "getenv('P')x",
        ] {
            assert_eq!(given.value(expr), None, "{expr}");
        }
    }

    #[test]
    fn writes_to_paths_the_command_line_gives() {
        let given = |lang: Lang, args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            Given::new(lang, None, &args, &[])
        };
        let guard = "~/.config/warden/config.yaml";
        for (lang, code) in [
            (
                Lang::Python,
                "import sys; open(sys.argv[1], 'w').write('x')",
            ),
            (
                Lang::Python,
                "import sys; p = sys.argv[-1]; f = open(p, 'a')",
            ),
            (Lang::Perl, "open(F, '>', $ARGV[0]); print F 'x'"),
            (Lang::Perl, "open(F, \">$ARGV[0]\")"),
            (
                Lang::Node,
                "require('fs').writeFileSync(process.argv[1], 'x')",
            ),
            (Lang::Ruby, "File.write(ARGV[0], 'x')"),
            (Lang::Php, "file_put_contents($argv[1], 'x');"),
        ] {
            let found: Vec<Action> = read(code, lang, Some(&given(lang, &[guard])))
                .effects
                .into_iter()
                .map(|e| e.action)
                .collect();
            let path = match found.as_slice() {
                [Action::Write { path, .. }] => path.as_str(),
                other => panic!("{lang:?} {code}: {other:?}"),
            };
            assert_eq!(path, guard, "{lang:?} {code}");
        }
        // Written where the code computes it at run time: which file is unknown.
        for (lang, code) in [
            (
                Lang::Python,
                "import sys\nfor p in sys.argv[1:]: open(p, 'w')",
            ),
            (Lang::Perl, "my $f = shift; open(my $h, '>', $f)"),
            (Lang::Perl, "open(F, \">$f\")"),
            (
                Lang::Node,
                "const [, f] = process.argv; require('fs').writeFileSync(f, 'x')",
            ),
            (Lang::Python, "import shutil; shutil.copy('a', dest)"),
        ] {
            assert_eq!(
                effects_of(read(code, lang, Some(&given(lang, &[guard])))),
                [Action::WriteUnknown],
                "{lang:?} {code}"
            );
        }
        // Reading what an argument names writes nothing.
        let reads = "import sys, json; print(json.load(open(sys.argv[1])))";
        assert!(effects_of(read(
            reads,
            Lang::Python,
            Some(&given(Lang::Python, &[guard]))
        ))
        .is_empty());
    }

    fn effects_of(reading: Reading) -> Vec<Action> {
        reading.effects.into_iter().map(|e| e.action).collect()
    }
}
