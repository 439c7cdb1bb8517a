//! Input validator for spies-any-n: exit 42 if stdin is one valid n, else 43.

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("cannot read the input: {e}");
        return ExitCode::from(43);
    }
    match spies_any_n_tools::validate(&input) {
        Ok(_) => ExitCode::from(42),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(43)
        }
    }
}
