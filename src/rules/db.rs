//! Built-in rules: db.

use super::{Matcher, Rule};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[];
