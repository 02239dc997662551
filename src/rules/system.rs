//! Built-in rules: system.

use super::{Matcher, Rule};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[];

pub static SUDO_GUARD: &[Rule] = &[];
