//! The exhaustive lava search against the Grundy reference on 1000 random
//! small boards made by the generator's board makers.

use caos3_tools::testing::assert_brute_agrees;

#[test]
fn brute_force_agrees_with_reference() {
    assert_brute_agrees(
        env!("CARGO_BIN_EXE_caos3"),
        env!("CARGO_BIN_EXE_caos3-brute"),
    );
}
