//! Test inputs for shortcuts that stand in for a regex: a spelling and every spelling one character away from it.

/// `sample`, then `sample` with each character in turn cut, and replaced by
/// each of `swaps`: the near misses and near matches around a match, where
/// a literal test that answers for a regex would first go wrong.
pub(crate) fn near_spellings(sample: &str, swaps: &[char]) -> Vec<String> {
    let chars: Vec<char> = sample.chars().collect();
    let mut out = vec![sample.to_string()];
    for at in 0..chars.len() {
        let mut cut = chars.clone();
        cut.remove(at);
        out.push(cut.into_iter().collect());
        for &swap in swaps {
            let mut changed = chars.clone();
            changed[at] = swap;
            out.push(changed.into_iter().collect());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_character_away() {
        let near = near_spellings("ab", &['x']);
        assert_eq!(near, ["ab", "b", "xb", "a", "ax"]);
        assert_eq!(near_spellings("", &['x']), [""]);
        // Characters, not bytes: a two-byte character is cut whole.
        assert_eq!(near_spellings("\u{e9}", &[]), ["\u{e9}", ""]);
    }
}
