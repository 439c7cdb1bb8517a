//! A validator for "n (1..=5), then a line of n values in -9..=9".

use judge_kit::{Lines, validator};

fn main() {
    validator::check(|input| {
        let mut lines = Lines::new(input);
        let n = lines.int_line(1, 5, "n")?;
        lines.ints_in(n as usize, -9, 9, "the values")?;
        lines.expect_end()
    })
}
