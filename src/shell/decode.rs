//! What text-producing and decoding commands output when their input is known: echo, printf, base64, base32, gzip, xxd, rev, tr.

/// The output of `echo ARGS`, handling `-n`, `-e` and `-E`.
pub fn echo(args: &[String]) -> String {
    let mut newline = true;
    let mut escapes = false;
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        let is_flag = first.len() > 1
            && first.starts_with('-')
            && first[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'));
        if !is_flag {
            break;
        }
        for c in first[1..].chars() {
            match c {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        rest = tail;
    }
    let mut out = rest.join(" ");
    if escapes {
        out = backslash_escapes(&out);
    }
    if newline {
        out.push('\n');
    }
    out
}

/// The output of `printf FORMAT ARGS`: `%s`, `%b`, `%d`, `%c`, `%%` and
/// backslash escapes; the format is reused while arguments remain, as printf does.
pub fn printf(args: &[String]) -> Option<String> {
    let (format, mut rest) = match args.split_first()? {
        (f, tail) if f == "--" => tail.split_first()?,
        other => other,
    };
    let mut out = String::new();
    // Bounded: each round consumes at least one argument.
    for _ in 0..=args.len() {
        let mut consumed = false;
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            // Skip flags, width and precision.
            while chars.peek().is_some_and(|c| "-+ #0123456789.".contains(*c)) {
                chars.next();
            }
            match chars.next() {
                Some('%') => out.push('%'),
                Some(conv) => {
                    let arg = rest.first().map(String::as_str).unwrap_or("");
                    if !rest.is_empty() {
                        rest = &rest[1..];
                        consumed = true;
                    }
                    match conv {
                        'b' => out.push_str(&backslash_escapes(arg)),
                        'c' => out.extend(arg.chars().next()),
                        _ => out.push_str(arg),
                    }
                }
                None => out.push('%'),
            }
        }
        if !consumed || rest.is_empty() {
            break;
        }
    }
    Some(backslash_escapes(&out))
}

/// The character a one-letter backslash escape stands for (`\n`, `\e`, ...),
/// shared by `$'...'`, `echo -e` and `printf`.
pub fn simple_escape(e: char) -> Option<char> {
    Some(match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'e' | 'E' => '\u{1b}',
        'f' => '\u{c}',
        'v' => '\u{b}',
        '\\' => '\\',
        _ => return None,
    })
}

/// Interprets `\n`, `\t`, `\\`, `\xHH`, `\0NNN`/`\NNN` as echo -e and printf do.
pub fn backslash_escapes(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        if let Some(c) = simple_escape(e) {
            out.push(c);
            continue;
        }
        match e {
            'x' => {
                let (value, used) = digits(&chars[i..], 16, 2);
                if used == 0 {
                    out.push_str("\\x");
                } else {
                    out.extend(char::from_u32(value));
                }
                i += used;
            }
            '0'..='7' => {
                let start = if e == '0' { i } else { i - 1 };
                let (value, used) = digits(&chars[start..], 8, 3);
                out.extend(char::from_u32(value));
                i = start + used;
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

fn digits(chars: &[char], radix: u32, max: usize) -> (u32, usize) {
    let mut value = 0;
    let mut used = 0;
    for c in chars.iter().take(max) {
        match c.to_digit(radix) {
            Some(d) => {
                value = value * radix + d;
                used += 1;
            }
            None => break,
        }
    }
    (value, used)
}

/// Standard or URL-safe base64, whitespace ignored; `None` unless the
/// result is text.
pub fn base64(input: &str) -> Option<String> {
    String::from_utf8(base64_bytes(input)?).ok()
}

/// The bytes standard or URL-safe base64 stands for, whitespace ignored.
pub fn base64_bytes(input: &str) -> Option<Vec<u8>> {
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut out = Vec::new();
    for c in input.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            '=' => break,
            c if c.is_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 6) | v;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    Some(out)
}

/// Base32 (RFC 4648), or its extended-hex alphabet (`basenc --base32hex`);
/// whitespace ignored, `None` unless the result is text.
pub fn base32(input: &str, extended_hex: bool) -> Option<String> {
    let mut bits: u64 = 0;
    let mut nbits = 0;
    let mut out = Vec::new();
    for c in input.chars() {
        let c = c.to_ascii_uppercase();
        let v = match (extended_hex, c) {
            (false, 'A'..='Z') => c as u64 - 'A' as u64,
            (false, '2'..='7') => c as u64 - '2' as u64 + 26,
            (true, '0'..='9') => c as u64 - '0' as u64,
            (true, 'A'..='V') => c as u64 - 'A' as u64 + 10,
            (_, '=') => break,
            (_, c) if c.is_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 5) | v;
        nbits += 5;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Most bytes a gzip stream may inflate to: past it the payload is treated
/// as unknown rather than expanded (a few bytes of gzip can stand for gigabytes).
const MAX_INFLATED: usize = 1024 * 1024;

/// The text inside gzip data (RFC 1952, members one after another);
/// `None` if it is damaged, is not text or inflates past [`MAX_INFLATED`].
pub fn gunzip(data: &[u8]) -> Option<String> {
    let mut out = Vec::new();
    let mut rest = data;
    loop {
        let body = gzip_body(rest)?;
        let mut bits = Bits::new(body);
        inflate(&mut bits, &mut out)?;
        // Past the CRC-32 and size trailer (gunzip prints the data before it
        // checks them, so a wrong checksum still reaches the shell), another
        // member or ignored trailing bytes.
        rest = body.get(bits.pos + 8..).unwrap_or(&[]);
        if !rest.starts_with(&[0x1f, 0x8b]) {
            return String::from_utf8(out).ok();
        }
    }
}

/// The text inside compressed data of any of the three DEFLATE wrappings
/// libraries produce: gzip, zlib (RFC 1950) or none (`gzinflate`,
/// `inflateRawSync`); `None` as for [`gunzip`].
pub fn decompress(data: &[u8]) -> Option<String> {
    if data.starts_with(&[0x1f, 0x8b]) {
        return gunzip(data);
    }
    let zlib = match data {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    };
    let body = if zlib { &data[2..] } else { data };
    let mut out = Vec::new();
    inflate(&mut Bits::new(body), &mut out)?;
    String::from_utf8(out).ok()
}

/// The DEFLATE data of a gzip member: what follows its header.
fn gzip_body(data: &[u8]) -> Option<&[u8]> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if data.len() < 10 || data[..3] != [0x1f, 0x8b, 8] {
        return None;
    }
    let flags = data[3];
    let mut rest = &data[10..];
    if flags & FEXTRA != 0 {
        let len = usize::from(*rest.first()?) | usize::from(*rest.get(1)?) << 8;
        rest = rest.get(2 + len..)?;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let end = rest.iter().position(|b| *b == 0)?;
            rest = &rest[end + 1..];
        }
    }
    if flags & FHCRC != 0 {
        rest = rest.get(2..)?;
    }
    Some(rest)
}

/// DEFLATE's bit reader: least significant bit first.
struct Bits<'a> {
    data: &'a [u8],
    /// The next byte to load.
    pos: usize,
    buffer: u32,
    count: u32,
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8]) -> Bits<'a> {
        Bits {
            data,
            pos: 0,
            buffer: 0,
            count: 0,
        }
    }

    fn take(&mut self, n: u32) -> Option<u32> {
        while self.count < n {
            let byte = *self.data.get(self.pos)?;
            self.pos += 1;
            self.buffer |= u32::from(byte) << self.count;
            self.count += 8;
        }
        let value = self.buffer & ((1u32 << n) - 1);
        self.buffer >>= n;
        self.count -= n;
        Some(value)
    }

    /// Drops the bits left in the current byte (stored blocks start on a byte).
    fn align(&mut self) {
        self.buffer = 0;
        self.count = 0;
    }
}

/// A canonical Huffman code: how many codes of each length, and the
/// symbols ordered by code.
struct Huffman {
    counts: [u16; 16],
    symbols: Vec<u16>,
}

impl Huffman {
    /// The code for the given code lengths (0: symbol unused); `None` if the
    /// lengths describe more codes than fit.
    fn new(lengths: &[u8]) -> Option<Huffman> {
        let mut counts = [0u16; 16];
        for &len in lengths {
            counts[usize::from(len)] += 1;
        }
        let mut left: i32 = 1;
        for &count in &counts[1..] {
            left = (left << 1) - i32::from(count);
            if left < 0 {
                return None;
            }
        }
        let mut offsets = [0u16; 16];
        for len in 1..15 {
            offsets[len + 1] = offsets[len] + counts[len];
        }
        let mut symbols = vec![0u16; lengths.len()];
        for (symbol, &len) in lengths.iter().enumerate() {
            if len != 0 {
                let slot = &mut offsets[usize::from(len)];
                symbols[usize::from(*slot)] = symbol as u16;
                *slot += 1;
            }
        }
        Some(Huffman { counts, symbols })
    }

    fn decode(&self, bits: &mut Bits) -> Option<u16> {
        // Codes of one length are consecutive numbers; walk the lengths
        // until the code read so far falls inside the current length's range.
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for &count in &self.counts[1..] {
            code |= bits.take(1)? as i32;
            let count = i32::from(count);
            if code - first < count {
                return self.symbols.get((index + code - first) as usize).copied();
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        None
    }
}

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which a dynamic block lists the code-length code's lengths.
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Inflates one DEFLATE stream (RFC 1951) onto `out`; leaves `bits` on the
/// byte after it.
fn inflate(bits: &mut Bits, out: &mut Vec<u8>) -> Option<()> {
    loop {
        let last = bits.take(1)? == 1;
        match bits.take(2)? {
            0 => {
                bits.align();
                let header = bits.data.get(bits.pos..bits.pos + 4)?;
                let len = usize::from(header[0]) | usize::from(header[1]) << 8;
                let nlen = usize::from(header[2]) | usize::from(header[3]) << 8;
                if len != !nlen & 0xffff || out.len() + len > MAX_INFLATED {
                    return None;
                }
                out.extend_from_slice(bits.data.get(bits.pos + 4..bits.pos + 4 + len)?);
                bits.pos += 4 + len;
            }
            1 => {
                let mut lengths = [0u8; 288];
                lengths[..144].fill(8);
                lengths[144..256].fill(9);
                lengths[256..280].fill(7);
                lengths[280..].fill(8);
                let literals = Huffman::new(&lengths)?;
                let distances = Huffman::new(&[5; 30])?;
                codes(bits, out, &literals, &distances)?;
            }
            2 => {
                let (literals, distances) = dynamic_codes(bits)?;
                codes(bits, out, &literals, &distances)?;
            }
            _ => return None,
        }
        if last {
            // The reader never holds a whole unread byte, so `pos` is
            // already the first byte after the stream.
            return Some(());
        }
    }
}

/// Reads the code descriptions at the start of a dynamic block.
fn dynamic_codes(bits: &mut Bits) -> Option<(Huffman, Huffman)> {
    let literal_count = bits.take(5)? as usize + 257;
    let distance_count = bits.take(5)? as usize + 1;
    let code_length_count = bits.take(4)? as usize + 4;
    if literal_count > 286 || distance_count > 30 {
        return None;
    }
    let mut code_lengths = [0u8; 19];
    for &i in &CODE_LENGTH_ORDER[..code_length_count] {
        code_lengths[i] = bits.take(3)? as u8;
    }
    let code_length_code = Huffman::new(&code_lengths)?;
    let total = literal_count + distance_count;
    let mut lengths: Vec<u8> = Vec::with_capacity(total);
    while lengths.len() < total {
        let (value, repeat) = match code_length_code.decode(bits)? {
            len @ 0..=15 => (len as u8, 1),
            16 => (*lengths.last()?, 3 + bits.take(2)?),
            17 => (0, 3 + bits.take(3)?),
            18 => (0, 11 + bits.take(7)?),
            _ => return None,
        };
        if lengths.len() + repeat as usize > total {
            return None;
        }
        lengths.extend(std::iter::repeat_n(value, repeat as usize));
    }
    // A block without an end-of-block code could never finish.
    if lengths[256] == 0 {
        return None;
    }
    let literals = Huffman::new(&lengths[..literal_count])?;
    let distances = Huffman::new(&lengths[literal_count..])?;
    Some((literals, distances))
}

/// Decodes literals and back-references until the end-of-block code.
fn codes(
    bits: &mut Bits,
    out: &mut Vec<u8>,
    literals: &Huffman,
    distances: &Huffman,
) -> Option<()> {
    loop {
        let symbol = usize::from(literals.decode(bits)?);
        match symbol {
            0..=255 => out.push(symbol as u8),
            256 => return Some(()),
            _ => {
                let i = symbol - 257;
                let len = usize::from(*LENGTH_BASE.get(i)?)
                    + bits.take(u32::from(LENGTH_EXTRA[i]))? as usize;
                let d = usize::from(distances.decode(bits)?);
                let dist =
                    usize::from(*DIST_BASE.get(d)?) + bits.take(u32::from(DIST_EXTRA[d]))? as usize;
                if dist > out.len() {
                    return None;
                }
                // Byte by byte: a reference may overlap the bytes it produces.
                let start = out.len() - dist;
                for k in 0..len {
                    out.push(out[start + k]);
                }
            }
        }
        if out.len() > MAX_INFLATED {
            return None;
        }
    }
}

/// Plain hex (`xxd -r -p`), whitespace ignored.
pub fn hex(input: &str) -> Option<String> {
    let digits: Vec<u32> = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(16))
        .collect::<Option<_>>()?;
    let bytes: Vec<u8> = digits
        .chunks(2)
        .map(|pair| (pair[0] * 16 + pair.get(1).copied().unwrap_or(0)) as u8)
        .collect();
    String::from_utf8(bytes).ok()
}

/// `rev`: each line reversed.
pub fn rev(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for line in input.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.extend(body.chars().rev());
        out.push_str(nl);
    }
    out
}

/// `tr SET1 SET2` and `tr -d SET1`, with ranges (`a-z`) and the common
/// classes; `None` for forms warden does not model.
pub fn tr(args: &[String], input: &str) -> Option<String> {
    let mut delete = false;
    let mut sets = Vec::new();
    for arg in args {
        match arg.as_str() {
            "-d" | "--delete" => delete = true,
            a if a.starts_with('-') && a.len() > 1 => return None,
            a => sets.push(expand_set(a)?),
        }
    }
    match (delete, sets.as_slice()) {
        (true, [set]) => Some(input.chars().filter(|c| !set.contains(c)).collect()),
        (false, [from, to]) if !to.is_empty() => Some(
            input
                .chars()
                .map(|c| match from.iter().position(|f| *f == c) {
                    Some(i) => to[i.min(to.len() - 1)],
                    None => c,
                })
                .collect(),
        ),
        _ => None,
    }
}

fn expand_set(set: &str) -> Option<Vec<char>> {
    let set = set
        .replace("[:lower:]", "a-z")
        .replace("[:upper:]", "A-Z")
        .replace("[:digit:]", "0-9");
    let chars: Vec<char> = backslash_escapes(&set).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' && chars[i] <= chars[i + 2] {
            let (a, b) = (chars[i] as u32, chars[i + 2] as u32);
            if b - a > 1024 {
                return None;
            }
            out.extend((a..=b).filter_map(char::from_u32));
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn decompressors() {
        let zlib = base64_bytes("eJwrylXQLUpT0AcAC50CVA==").unwrap_or_default();
        assert_eq!(decompress(&zlib).as_deref(), Some("rm -rf /"));
        let raw = base64_bytes("K8pV0C1KU9AHAA==").unwrap_or_default();
        assert_eq!(decompress(&raw).as_deref(), Some("rm -rf /"));
        assert_eq!(decompress(b"not compressed"), None);
    }

    #[test]
    fn decoders() {
        assert_eq!(base64("cm0gLXJmIC8=").as_deref(), Some("rm -rf /"));
        assert_eq!(hex("726d202d7266202f").as_deref(), Some("rm -rf /"));
        assert_eq!(base32("OJSWE33POQ======", false).as_deref(), Some("reboot"));
        assert_eq!(base32("ojswe33poq", false).as_deref(), Some("reboot"));
        assert_eq!(base32("E9IM4RRFEG======", true).as_deref(), Some("reboot"));
        assert_eq!(base32("OJSWE33POQ1", false), None);
        let gz = base64_bytes("H4sIAAAAAAACAyvKVdAtSlPQBwBcTPLsCAAAAA==").unwrap_or_default();
        assert_eq!(gunzip(&gz).as_deref(), Some("rm -rf /"));
    }

    #[test]
    fn gzip_blocks() {
        let gz = |b64: &str| gunzip(&base64_bytes(b64).unwrap_or_default());
        // Dynamic Huffman codes (gzip -9 of a 1585-byte script).
        let dynamic = gz("H4sIALGuAWsC/43TOw7CQAxF0T6rMKJGie35spzAAJFIQPnsn9aN0euvrNE7mvOpH6el317d1na6tK7dXh/a9val4UrjMb3v0/Kk+XM/3o2WYx7bSoOp2K2yqcSt2FTqVsVUwa3EVNGtqqmSW6mpsv96O0Vxs2Cq6h+zW7A/f7SZvz/bOdgXSDZTDD1A6hwhdk6QO2cIngskzxWilwGzF4bwRTB9UUhfAqYvEdKXBOlLxv58gfSlQvo6QPrKkL4KpK+K6WuA9DVi+pogfc2YvhZIX+sf/XWmy/qgvvsBk22dLjEGAAA=")
            .unwrap_or_default();
        assert_eq!(dynamic.len(), 1585);
        assert!(dynamic.starts_with("#!/bin/sh\nset -e\necho step 0:"));
        assert!(dynamic.ends_with("\nrm -rf /\n"));
        // A stored block, behind a file name in the header.
        assert_eq!(
            gz("H4sICAAAAAAAA25hbWUuc2gAAQwA8/9lY2hvIHN0b3JlZAp1BrGCDAAAAA==").as_deref(),
            Some("echo stored\n")
        );
        // Two members, then padding gunzip ignores.
        assert_eq!(
            gz("H4sIALGuAWsC/0tNzshXSOQCAAnv+6QHAAAAH4sIALGuAWsC/0tNzshXSOICAMq81o8HAAAAAAAA")
                .as_deref(),
            Some("echo a\necho b\n")
        );
        assert_eq!(gunzip(b"\x1f\x8b\x08\0\0\0\0\0\0\x03\xff"), None);
        assert_eq!(gunzip(b"plain text"), None);
    }

    #[test]
    fn gzip_bomb_is_unknown() {
        // A fixed-code block: one `a`, then `reps` copies of the 258 bytes
        // before, then end of block; header and trailer around it.
        let bomb = |reps: usize| {
            let mut bytes = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
            let (mut acc, mut n) = (0u64, 0);
            let mut put = |value: u32, width: u32, bytes: &mut Vec<u8>| {
                // Huffman codes go most significant bit first.
                for i in (0..width).rev() {
                    acc |= u64::from(value >> i & 1) << n;
                    n += 1;
                    if n == 8 {
                        bytes.push(acc as u8);
                        (acc, n) = (0, 0);
                    }
                }
            };
            put(0b110, 3, &mut bytes); // BFINAL 1, BTYPE 01, read LSB first
            put(0x30 + u32::from(b'a'), 8, &mut bytes);
            for _ in 0..reps {
                put(0xc5, 8, &mut bytes); // length 258
                put(0, 5, &mut bytes); // distance 1
            }
            put(0, 7, &mut bytes); // end of block
            put(0, 7, &mut bytes); // flush the last byte
            bytes.extend([0; 8]);
            bytes
        };
        assert_eq!(gunzip(&bomb(3)).map(|t| t.len()), Some(1 + 3 * 258));
        assert_eq!(gunzip(&bomb(10_000)), None);
        assert_eq!(rev("/ fr- mr\n"), "rm -rf /\n");
        assert_eq!(
            tr(&s(&["eqv", "rmf"]), "eq -pe v/").as_deref(),
            Some("rm -pr f/")
        );
        assert_eq!(
            printf(&s(&[r"\x72\x6d -rf /"])).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            printf(&s(&["%s %s\n", "a", "b", "c"])).as_deref(),
            Some("a b\nc \n")
        );
        assert_eq!(echo(&s(&["-e", r"\x72m"])), "rm\n");
    }
}
