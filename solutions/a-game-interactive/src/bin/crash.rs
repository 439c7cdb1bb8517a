//! Makes its first move, then reads the referee's answer as a number (it
//! expected an index, not `L`/`R`) and panics on the parse: a crash in the
//! middle of the game (RE).

use std::io::{BufRead, Write};

fn main() {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    line.clear();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    let mut out = std::io::stdout();
    writeln!(out, "L").unwrap();
    out.flush().unwrap();
    line.clear();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    let taken: usize = line.trim().parse().unwrap();
    writeln!(out, "{taken}").unwrap();
}
