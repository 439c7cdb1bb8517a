//! `caos3-interactive-generator KIND ARGS... > test.in`: one map that the
//! first player wins.

fn main() {
    judge_kit::generator::main(caos3_interactive_tools::generate)
}
