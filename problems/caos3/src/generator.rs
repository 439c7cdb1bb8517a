//! `caos3-generator KIND ARGS...`: writes one CAOS3 input file to stdout.

fn main() {
    judge_kit::generator::main(|args| {
        caos3_tools::generate(args, caos3_tools::ORIGINAL)
            .map_err(|message| format!("caos3-generator: {message}\n{}", caos3_tools::USAGE))
    })
}
