//! `caos3-large-generator KIND ARGS...`: writes one input file of the 40x40
//! tier to stdout.

fn main() {
    judge_kit::generator::main(|args| {
        caos3_large_tools::generate(args, caos3_large_tools::LIMITS).map_err(|message| {
            format!(
                "caos3-large-generator: {message}\n{}",
                caos3_large_tools::USAGE
            )
        })
    })
}
