//! `caos3-large-validator < test.in`: exit 42 if the input meets the CAOS3
//! format and the large tier's limits (T <= 10, R, C <= 40), else 43 with the
//! reason on stderr.

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut input = String::new();
    if let Err(error) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("input is not UTF-8 text: {error}");
        return ExitCode::from(43);
    }
    match caos3_large_tools::validate(&input, caos3_large_tools::LIMITS) {
        Ok(()) => ExitCode::from(42),
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(43)
        }
    }
}
