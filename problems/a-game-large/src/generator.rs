//! `a-game-large-generator KIND N MAXV LAYOUT SEED > test.in`

fn main() {
    judge_kit::generator::main(|args| {
        a_game_tools::generate_within(args, &a_game_large_tools::BOUNDS)
    })
}
