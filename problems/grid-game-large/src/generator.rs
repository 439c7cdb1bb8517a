//! `grid-game-large-generator KIND T NMIN NMAX LO HI SEED > test.in`

fn main() {
    judge_kit::generator::main(|args| Ok(grid_game_large_tools::generate(args)?.render()))
}
