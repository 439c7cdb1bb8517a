//! `spies-any-n-generator fixed N | random LO HI SEED > test.in`

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match spies_any_n_tools::board_size(&args) {
        Ok(n) => {
            print!("{}", spies_any_n_tools::input(n));
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}
