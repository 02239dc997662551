//! Built-in rules: containers.

use super::{Matcher, Rule};
use crate::verdict::Decision;

pub static RULES: &[Rule] = &[];
