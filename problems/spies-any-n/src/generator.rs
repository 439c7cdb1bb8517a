//! `spies-any-n-generator fixed N | random LO HI SEED > test.in`

fn main() {
    judge_kit::generator::main(|args| {
        Ok(spies_any_n_tools::input(spies_any_n_tools::board_size(
            args,
        )?))
    })
}
