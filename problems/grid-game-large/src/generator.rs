//! `grid-game-large-generator KIND T NMIN NMAX LO HI SEED > test.in`

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match grid_game_large_tools::generate(&args) {
        Ok(case) => {
            print!("{}", case.render());
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}
