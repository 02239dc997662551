//! Punycode (RFC 3492) decoding: the Unicode label an `xn--` label stands for.
//!
//! Only decoding is needed, to see the name a person would be shown. A
//! maintained crate has it (`idna`), but picks its Unicode back end by the
//! version of another crate (ICU4X by default, some twenty crates); keeping
//! that out takes two version pins for the one function used here.

/// The parameters RFC 3492 fixes for IDNA (section 5).
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// The Unicode text `input` (a label without its `xn--`) encodes, or `None`
/// when it is not valid Punycode: a non-ASCII byte, a bad digit, an
/// overflow, a code point that is no character, or input cut short.
pub(super) fn decode(input: &str) -> Option<String> {
    if !input.is_ascii() {
        return None;
    }
    // Everything before the last `-` is copied as it is; the digits after
    // it say where each other character goes.
    let (basic, digits) = match input.rfind('-') {
        Some(at) => (&input[..at], &input[at + 1..]),
        None => ("", input),
    };
    let mut out: Vec<char> = basic.chars().collect();
    let (mut code, mut at, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    let mut digits = digits.bytes();
    while digits.len() > 0 {
        let before = at;
        let mut weight = 1u32;
        let mut k = BASE;
        // One variable-length number: digits below their threshold end it.
        loop {
            let digit = value(digits.next()?)?;
            at = at.checked_add(digit.checked_mul(weight)?)?;
            let threshold = (k.saturating_sub(bias)).clamp(T_MIN, T_MAX);
            if digit < threshold {
                break;
            }
            weight = weight.checked_mul(BASE - threshold)?;
            k += BASE;
        }
        let length = u32::try_from(out.len()).ok()? + 1;
        bias = adapt(at - before, length, before == 0);
        code = code.checked_add(at / length)?;
        at %= length;
        out.insert(usize::try_from(at).ok()?, char::from_u32(code)?);
        at += 1;
    }
    Some(out.into_iter().collect())
}

/// A digit's value: `a`-`z` (either case) are 0-25, `0`-`9` are 26-35.
fn value(byte: u8) -> Option<u32> {
    match byte {
        b'a'..=b'z' => Some(u32::from(byte - b'a')),
        b'A'..=b'Z' => Some(u32::from(byte - b'A')),
        b'0'..=b'9' => Some(u32::from(byte - b'0') + 26),
        _ => None,
    }
}

/// The bias for the next number, from how far the last one moved.
fn adapt(delta: u32, length: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / length;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

#[cfg(test)]
mod tests {
    use super::decode;

    /// The sample strings of RFC 3492, section 7.1, by their letters there.
    #[test]
    fn the_rfc_samples_decode() {
        let samples = [
            ("B", "ihqwcrb4cv8a8dqg056pqjye", "他们为什么不说中文"),
            ("C", "ihqwctvzc91f659drss3x8bo0yb", "他們爲什麽不說中文"),
            (
                "D",
                "Proprostnemluvesky-uyb24dma41a",
                "Pročprostěnemluvíčesky",
            ),
            (
                "G",
                "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa",
                "なぜみんな日本語を話してくれないのか",
            ),
            (
                "I",
                "b1abfaaepdrnnbgefbaDotcwatmq2g4l",
                "почемужеонинеговорятпорусски",
            ),
            (
                "J",
                "PorqunopuedensimplementehablarenEspaol-fmd56a",
                "PorquénopuedensimplementehablarenEspañol",
            ),
            (
                "K",
                "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g",
                "TạisaohọkhôngthểchỉnóitiếngViệt",
            ),
            ("L", "3B-ww4c5e180e575a65lsy2b", "3年B組金八先生"),
            (
                "M",
                "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n",
                "安室奈美恵-with-SUPER-MONKEYS",
            ),
            (
                "N",
                "Hello-Another-Way--fc4qua05auwb3674vfr0b",
                "Hello-Another-Way-それぞれの場所",
            ),
            ("O", "2-u9tlzr9756bt3uc0v", "ひとつ屋根の下2"),
            ("P", "MajiKoi5-783gue6qz075azm5e", "MajiでKoiする5秒前"),
            ("Q", "de-jg4avhby1noc0d", "パフィーdeルンバ"),
            ("R", "d9juau41awczczp", "そのスピードで"),
            ("S", "-> $1.00 <--", "-> $1.00 <-"),
        ];
        for (name, encoded, decoded) in samples {
            assert_eq!(decode(encoded).as_deref(), Some(decoded), "sample {name}");
        }
    }

    #[test]
    fn hosts_decode() {
        assert_eq!(decode("mnchen-3ya").as_deref(), Some("münchen"));
        assert_eq!(decode("gthub-n2e").as_deref(), Some("g\u{456}thub"));
        // Digits are read in either case; the copied part keeps its own.
        assert_eq!(decode("GTHUB-N2E").as_deref(), Some("G\u{456}THUB"));
        assert_eq!(decode("github-9ab").as_deref(), Some("\u{85}g\u{85}ithub"));
        assert_eq!(decode("github-").as_deref(), Some("github"));
        assert_eq!(decode("").as_deref(), Some(""));
    }

    #[test]
    fn bad_input_is_refused_never_a_panic() {
        for bad in [
            "gthub-n2é",
            "a-!",
            "abc-9",
            "zzzzzzzzzzzzzzzzz",
            "99999999999",
            "-9",
            "a-zz9zz9zz9zz9",
        ] {
            assert_eq!(decode(bad), None, "{bad}");
        }
        // Every short digit string, and a few long ones: refused or decoded.
        let digits = "abcdefghijklmnopqrstuvwxyz0123456789";
        for a in digits.chars() {
            for b in digits.chars() {
                let _ = decode(&format!("x-{a}{b}"));
                let _ = decode(&format!("{a}{b}{a}"));
            }
        }
        let _ = decode(&"9".repeat(10_000));
        let _ = decode(&"a".repeat(10_000));
    }
}
