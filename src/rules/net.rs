//! Built-in rules: net.

use super::{Matcher, Rule};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[];
