//! Sends a word instead of a stone number (WA: every move must be the index
//! of a stone left).

use std::io::Write;

fn main() {
    let mut out = std::io::stdout();
    writeln!(out, "heaviest").unwrap();
    out.flush().unwrap();
}
