//! Input validator for spies-revised: the problem has no input, so a test input must be
//! empty.

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("cannot read the input: {e}");
        return ExitCode::from(43);
    }
    if input.is_empty() {
        ExitCode::from(42)
    } else {
        eprintln!("the input must be empty, found {} bytes", input.len());
        ExitCode::from(43)
    }
}
