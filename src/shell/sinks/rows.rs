//! The rows of the code-sink table by program name, worked out at compile time: a command meets only the rows that name its program.

use super::{Sink, SINKS};
use crate::shell::names::{self, NameMap, Slot};

/// How many program names the rows hold, rows for any program left out.
const NAMES: usize = {
    let (mut n, mut i) = (0, 0);
    while i < SINKS.len() {
        if !is_any(SINKS[i].programs) {
            n += SINKS[i].programs.len();
        }
        i += 1;
    }
    n
};

/// Whether `programs` is [`ANY`].
const fn is_any(programs: &[&str]) -> bool {
    matches!(programs, [only] if matches!(only.as_bytes(), b"(any)"))
}

/// Every program name of every row (rows for any program left out), in
/// table order, as a place: the row it is in and the next place naming
/// the same program ([`NAMES`] at the last). Built at compile time, so a
/// call walks from a program's first row straight to its next, not over
/// every row after it.
static PLACES: [(u16, u16); NAMES] = {
    let mut places = [(0u16, NAMES as u16); NAMES];
    let mut names = [""; NAMES];
    let (mut i, mut n) = (0, 0);
    while i < SINKS.len() {
        let mut k = 0;
        while k < SINKS[i].programs.len() && !is_any(SINKS[i].programs) {
            places[n].0 = i as u16;
            names[n] = SINKS[i].programs[k];
            n += 1;
            k += 1;
        }
        i += 1;
    }
    let mut a = 0;
    while a < NAMES {
        let mut b = a + 1;
        while b < NAMES && !names::same(names[a], names[b]) {
            b += 1;
        }
        places[a].1 = b as u16;
        a += 1;
    }
    places
};

/// Each program name to its first place in [`PLACES`], built at compile time.
pub(in crate::shell) static FIRST_ROW: NameMap<u16> = {
    static SLOTS: [Slot<u16>; names::table_size(NAMES)] = {
        let mut slots = [Slot::VACANT; names::table_size(NAMES)];
        let (mut i, mut n) = (0, 0);
        while i < SINKS.len() {
            let mut k = 0;
            while k < SINKS[i].programs.len() && !is_any(SINKS[i].programs) {
                names::insert(&mut slots, SINKS[i].programs[k], n as u16);
                n += 1;
                k += 1;
            }
            i += 1;
        }
        slots
    };
    NameMap::built(&SLOTS)
};

/// The rows naming `program`, in table order.
pub(super) fn rows_of(program: &str) -> Option<impl Iterator<Item = &'static Sink> + '_> {
    let first = *FIRST_ROW.get(program)?;
    let rows = std::iter::successors(Some(first), |&at| {
        PLACES
            .get(at as usize)
            .map(|&(_, next)| next)
            .filter(|&next| (next as usize) < NAMES)
    })
    .filter_map(|at| {
        PLACES
            .get(at as usize)
            .and_then(|&(row, _)| SINKS.get(row as usize))
    });
    debug_assert!(rows.clone().map(|s| s as *const Sink).eq(SINKS
        .iter()
        .filter(|sink| !is_any(sink.programs) && sink.programs.contains(&program))
        .map(|s| s as *const Sink)));
    Some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_program_meets_exactly_the_rows_that_name_it_in_order() {
        let mut programs: Vec<&str> = SINKS
            .iter()
            .filter(|s| !is_any(s.programs))
            .flat_map(|s| s.programs.iter().copied())
            .collect();
        programs.extend(["", "(any)", "zzz", "git2", "sor"]);
        for program in programs {
            let found: Vec<*const Sink> = rows_of(program)
                .into_iter()
                .flatten()
                .map(|s| s as *const Sink)
                .collect();
            let scanned: Vec<*const Sink> = SINKS
                .iter()
                .filter(|s| !is_any(s.programs) && s.programs.contains(&program))
                .map(|s| s as *const Sink)
                .collect();
            assert_eq!(found, scanned, "{program}");
            assert_eq!(
                FIRST_ROW.contains(program),
                !scanned.is_empty(),
                "{program}"
            );
        }
    }
}
