//! Input validator for spies-any-n: exit 42 if stdin is one valid n, else 43.

fn main() {
    judge_kit::validator::check(|input| spies_any_n_tools::validate(input).map(|_| ()))
}
