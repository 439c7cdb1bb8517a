//! `caos3-generator KIND ARGS...`: writes one CAOS3 input file to stdout.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match caos3_tools::generate(&args, caos3_tools::ORIGINAL) {
        Ok(input) => {
            print!("{input}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("caos3-generator: {message}\n{}", caos3_tools::USAGE);
            ExitCode::FAILURE
        }
    }
}
