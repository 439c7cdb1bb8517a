//! `stone-game-vi-large-generator KIND T N|LO-HI MAXV SEED > test.in`

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match stone_game_vi_large_tools::generate(&args) {
        Ok(games) => {
            let text = stone_game_vi_large_tools::render(&games);
            std::io::stdout().lock().write_all(text.as_bytes()).unwrap();
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}
