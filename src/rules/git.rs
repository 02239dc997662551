//! Built-in rules: git.

use super::{Matcher, Rule};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[];
