//! `caos3-large-generator KIND ARGS...`: writes one input file of the 40x40
//! tier to stdout.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match caos3_large_tools::generate(&args, caos3_large_tools::LIMITS) {
        Ok(input) => {
            print!("{input}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!(
                "caos3-large-generator: {message}\n{}",
                caos3_large_tools::USAGE
            );
            ExitCode::FAILURE
        }
    }
}
