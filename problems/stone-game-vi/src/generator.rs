//! `stone-game-vi-generator KIND N MAXV SEED > test.in`

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match stone_game_vi_tools::generate(&args) {
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
