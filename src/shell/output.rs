//! What a command prints, where the line itself tells it (`echo`, `printf`, decoders, filters over known input, files the line wrote), for the next stage or a substitution to use.

use super::command::{Command, RedirectOp};
use super::decode;
use super::eval::{file_key, Eval};

impl Eval<'_> {
    /// What a command prints, when warden can know it without running it.
    pub(super) fn output(&mut self, cmd: &Command) -> Option<String> {
        let stdin = cmd.stdin.as_deref();
        // Asked of every command: the operands only for the programs that look.
        let found = std::cell::OnceCell::new();
        let operands = || found.get_or_init(|| cmd.operands()).as_slice();
        match cmd.program.as_str() {
            "echo" => Some(decode::echo(&cmd.args)),
            "printf" => decode::printf(&cmd.args),
            "cat" | "tac" if operands().is_empty() || operands() == ["-"] => {
                stdin.map(str::to_string)
            }
            "cat" => {
                let mut text = String::new();
                for op in operands() {
                    text.push_str(self.files.get(&file_key(op))?);
                }
                Some(text)
            }
            "base64" | "base32" | "basenc"
                if cmd.has_short('d') || cmd.has_short('D') || cmd.has_long("--decode") =>
            {
                self.base_decoded(cmd, operands().first().copied(), stdin)
            }
            "gunzip" | "zcat" | "gzcat" | "gzip"
                if (cmd.program != "gzip"
                    || cmd.has_short('d')
                    || cmd.has_long("--decompress"))
                    && operands().iter().all(|o| *o == "-") =>
            {
                self.gunzipped(cmd)
            }
            // Filters print part of what they read, reshaped: a shell at the
            // end of the pipeline is judged on all of it, an upper bound of
            // what could reach it (`echo 'rm -rf ~' | sed s/x/y/ | sh`).
            "sed" | "gsed" | "grep" | "egrep" | "fgrep" | "awk" | "gawk" | "mawk"
                if operands().len() <= 1 && !cmd.has_short('i') =>
            {
                stdin.map(str::to_string)
            }
            "head" | "tail" | "sort" | "uniq" | "cut" | "fold" | "expand" | "unexpand"
            | "column"
                if operands().is_empty() =>
            {
                stdin.map(str::to_string)
            }
            "xxd" if cmd.has_short('r') => decode::hex(stdin?),
            "rev" if operands().is_empty() => Some(decode::rev(stdin?)),
            "tr" => decode::tr(&cmd.args, stdin?),
            "openssl" => openssl_base64_decoded(cmd, stdin?),
            // Unknown directories stay symbolic so path rules still see
            // `$PWD/x` as inside the project.
            "pwd" => Some(format!(
                "{}\n",
                self.cwd.clone().unwrap_or_else(|| "$PWD".into())
            )),
            "mktemp" => Some(if cmd.has_short('d') || cmd.has_long("--directory") {
                "/tmp/tmp.warden-dir\n".into()
            } else {
                "/tmp/tmp.warden-file\n".into()
            }),
            "tee" => {
                let text = stdin?.to_string();
                for op in operands() {
                    self.files.insert(file_key(op), text.clone());
                }
                Some(text)
            }
            _ => None,
        }
    }
    /// `base64 -d`, `base32 -d`, `basenc --base16 -d` of a file the line
    /// wrote or of stdin.
    fn base_decoded(
        &self,
        cmd: &Command,
        file: Option<&str>,
        stdin: Option<&str>,
    ) -> Option<String> {
        let input = match file {
            Some(f) => self.files.get(&file_key(f))?.as_str(),
            None => stdin?,
        };
        // basenc names its encoding; exact names, since `--base32`
        // would also pass as an abbreviation of `--base32hex`.
        let encoding = match cmd.program.as_str() {
            "basenc" => cmd.options().find(|o| {
                matches!(
                    *o,
                    "--base64" | "--base64url" | "--base32" | "--base32hex" | "--base16"
                )
            })?,
            "base32" => "--base32",
            _ => "--base64",
        };
        match encoding {
            "--base32" => decode::base32(input, false),
            "--base32hex" => decode::base32(input, true),
            "--base16" => decode::hex(input),
            _ => decode::base64(input),
        }
    }

    /// `gunzip` of what a `base64 -d` just before it decodes.
    fn gunzipped(&self, cmd: &Command) -> Option<String> {
        // Compressed bytes are not text, so they never travel down the
        // pipeline as stdin: a base64 stage just before is decoded again
        // here from its own input (a here-string, a known file, or the
        // echo/printf before it).
        let (decoder, earlier) = cmd.upstream.split_last()?;
        let decodes = decoder.program == "base64"
            && (decoder.has_short('d') || decoder.has_short('D') || decoder.has_long("--decode"));
        if !decodes {
            return None;
        }
        let here = decoder
            .redirects
            .iter()
            .rev()
            .find(|r| r.op == RedirectOp::Here)
            .map(|r| r.target.clone());
        let file = decoder
            .operands()
            .first()
            .map(|f| f.to_string())
            .or_else(|| {
                decoder
                    .redirects
                    .iter()
                    .rev()
                    .find(|r| r.op == RedirectOp::Read)
                    .map(|r| r.target.clone())
            });
        let encoded = match (here, file) {
            (Some(text), _) => text,
            (None, Some(f)) => self.files.get(&file_key(&f))?.clone(),
            (None, None) => match earlier.last() {
                Some(e) if e.program == "echo" => decode::echo(&e.args),
                Some(p) if p.program == "printf" => decode::printf(&p.args)?,
                _ => return None,
            },
        };
        decode::gunzip(&decode::base64_bytes(&encoded)?)
    }
}

/// `openssl base64 -d` (`openssl enc -d -a`) without a cipher: the text it
/// decodes; a decryption's output is not known.
fn openssl_base64_decoded(cmd: &Command, stdin: &str) -> Option<String> {
    let base64 = cmd.args.first().is_some_and(|a| a == "base64")
        || cmd.args.iter().any(|a| a == "-base64" || a == "-a");
    let decoding = cmd.args.iter().any(|a| a == "-d");
    let ciphered = cmd.args.iter().any(|a| {
        a.starts_with("-aes")
            || a.starts_with("-des")
            || a.starts_with("-chacha")
            || a == "-pass"
            || a == "-k"
    });
    (base64 && decoding && !ciphered)
        .then(|| decode::base64(stdin))
        .flatten()
}
