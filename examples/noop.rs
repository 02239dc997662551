//! A binary that does nothing: the floor that bench/startup.sh measures warden's start-up against.

fn main() {}
