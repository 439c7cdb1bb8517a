//! `a-game-large-generator KIND N MAXV LAYOUT SEED > test.in`

fn main() -> std::process::ExitCode {
    a_game_tools::generator_main(&a_game_large_tools::BOUNDS)
}
