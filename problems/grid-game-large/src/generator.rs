//! `grid-game-large-generator KIND T NMIN NMAX LO HI SEED > test.in`

fn main() -> std::process::ExitCode {
    grid_game_tools::generator_main(&grid_game_large_tools::BOUNDS)
}
