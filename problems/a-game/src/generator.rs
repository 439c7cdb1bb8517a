//! `a-game-generator KIND N MAXV LAYOUT SEED > test.in`

fn main() -> std::process::ExitCode {
    a_game_tools::generator_main(&a_game_tools::BOUNDS)
}
