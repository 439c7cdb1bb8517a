//! Sends a sentence instead of a move (WA: every move must be `L` or `R`).

use std::io::Write;

fn main() {
    let mut out = std::io::stdout();
    writeln!(out, "take the left one please").unwrap();
    out.flush().unwrap();
}
