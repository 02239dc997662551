//! Built-in rules: hardline.

use super::{Matcher, Rule};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[];
