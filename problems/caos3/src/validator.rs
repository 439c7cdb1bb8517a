//! `caos3-validator < test.in`: exit 42 if the input meets CAOS3's format and
//! limits (T <= 10, R, C <= 20), else 43 with the reason on stderr.

fn main() {
    judge_kit::validator::check(|input| caos3_tools::validate(input, caos3_tools::ORIGINAL))
}
