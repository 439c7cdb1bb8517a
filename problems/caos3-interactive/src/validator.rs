//! `caos3-interactive-validator < test.in`: exit 42 if the test is one map in
//! the exact layout (R, C ≤ 20) that the first player wins, else 43 and why.

fn main() {
    judge_kit::validator::check(caos3_interactive_tools::validate)
}
