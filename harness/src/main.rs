use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = harness::cli::Cli::from_env();
    match harness::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}
