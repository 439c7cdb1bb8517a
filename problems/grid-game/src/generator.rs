//! `grid-game-generator KIND T NMIN NMAX LO HI SEED > test.in`

fn main() {
    judge_kit::generator::main(|args| {
        let case = grid_game_tools::generate_within(args, &grid_game_tools::BOUNDS)?;
        Ok(case.render())
    })
}
