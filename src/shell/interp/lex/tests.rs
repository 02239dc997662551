//! Tests of the interpreter-code lexer: strings, comments, interpolations, quote-like operators, heredocs.

use super::*;

fn text_at(code: &str, d: Dialect, needle: &str) -> bool {
    let pos = code.find(needle).expect("needle is in the code");
    contains(&lex(code, d).text, pos)
}

const DIALECTS: [Dialect; 6] = [
    Dialect::Python,
    Dialect::Js,
    Dialect::Ruby,
    Dialect::Perl,
    Dialect::Php,
    Dialect::Lua,
];

#[test]
fn strings_and_escapes() {
    let code = r#"print("shutil.rmtree(\"/\")"); shutil.rmtree('/x')"#;
    for d in DIALECTS {
        assert!(text_at(code, d, "shutil.rmtree(\\"), "{d:?}");
        assert!(!text_at(code, d, "shutil.rmtree('"), "{d:?}");
    }
}

#[test]
fn comments_do_not_open_strings() {
    let py = "# it's here\nshutil.rmtree('/')";
    assert!(!text_at(py, Dialect::Python, "shutil"));
    let js = "// don't\nrequire('fs').rmSync('/')";
    assert!(!text_at(js, Dialect::Js, "rmSync"));
    let lua = "-- it's\nos.execute('x')";
    assert!(!text_at(lua, Dialect::Lua, "os.execute"));
    let perl = "my $n = $#a; system('x') # it's";
    assert!(!text_at(perl, Dialect::Perl, "system"));
}

#[test]
fn interpolation_is_code() {
    let py = r#"print(f"{os.system('x')}")"#;
    assert!(!text_at(py, Dialect::Python, "os.system"));
    assert!(text_at(
        "print('{os.system}')",
        Dialect::Python,
        "os.system"
    ));
    let rb = r##"puts "#{system("x")} and system" "##;
    assert!(!text_at(rb, Dialect::Ruby, "system("));
    assert!(text_at(rb, Dialect::Ruby, "system\" "));
    let js = "console.log(`${require('fs').rmSync('/')}`)";
    assert!(!text_at(js, Dialect::Js, "rmSync"));
}

#[test]
fn regexes_and_quote_like_operators() {
    let perl = "print if /it's/; system('x'); $y = 'z'";
    assert!(!text_at(perl, Dialect::Perl, "system"));
    let perl = "my $t = q{it's}; system('x')";
    assert!(!text_at(perl, Dialect::Perl, "system"));
    let rb = "x = %q(it's); system('x')";
    assert!(!text_at(rb, Dialect::Ruby, "system"));
    let js = "const r = /it's/; require('x').execSync('y')";
    assert!(!text_at(js, Dialect::Js, "execSync"));
    assert!(!text_at(
        "a = b / c; system('x') / 2",
        Dialect::Js,
        "system"
    ));
}

#[test]
fn heredocs() {
    let rb = "x = <<~E\n  it's\n  E\nsystem('x')";
    assert!(text_at(rb, Dialect::Ruby, "it's"));
    assert!(!text_at(rb, Dialect::Ruby, "system"));
    let php = "$x = <<<EOT\nit's\nEOT;\nshell_exec('x');";
    assert!(!text_at(php, Dialect::Php, "shell_exec"));
}

#[test]
fn commands_in_backticks() {
    let code = "puts `rm -rf ~`";
    let lexed = lex(code, Dialect::Ruby);
    assert_eq!(lexed.commands, vec![(6, 14)]);
    assert!(lex(code, Dialect::Js).commands.is_empty());
    assert_eq!(lex("$`rm -rf /`", Dialect::Js).commands, vec![(2, 10)]);
    assert_eq!(lex("qx{rm -rf /}", Dialect::Perl).commands, vec![(3, 11)]);
}

#[test]
fn unterminated_input_is_code() {
    let code = "print('x'); os.system('rm";
    assert!(!text_at(code, Dialect::Python, "rm"));
    let deep = "f\"{".repeat(10_000);
    for d in DIALECTS {
        let _ = lex(&deep, d);
    }
}

#[test]
fn perl_and_ruby_oddities() {
    let perl = "print $'; system('x'); $y = 'z'";
    assert!(!text_at(perl, Dialect::Perl, "system"));
    let perl = "s/x/system('y')/e; $z = 'w'";
    assert!(!text_at(perl, Dialect::Perl, "system"));
    let perl = "=pod\nsystem('x')\n=cut\nexec('y')";
    assert!(text_at(perl, Dialect::Perl, "system"));
    assert!(!text_at(perl, Dialect::Perl, "exec"));
    let rb = "system('x')\n__END__\nexec('y')";
    assert!(text_at(rb, Dialect::Ruby, "exec"));
}

#[test]
fn julia_comments_transposes_and_interpolation() {
    let code = "#= it's =# x = A'; run(`rm $(homedir())`); println(\"$(f(1)) done\")";
    let d = Dialect::Julia;
    assert!(text_at(code, d, "it's"));
    // `A'` transposes: the quote opens no string, so `run` is code.
    assert!(!text_at(code, d, "run("));
    assert!(!text_at(code, d, "homedir()"));
    assert!(text_at(code, d, "rm "));
    assert!(!text_at(code, d, "f(1)"));
    assert!(text_at(code, d, " done"));
    assert_eq!(lex(code, d).commands.len(), 1);
}
