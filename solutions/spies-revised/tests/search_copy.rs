//! spies-revised-search must run exactly the spies-any-n reference search.

#[test]
fn search_is_a_verbatim_copy_of_the_reference() {
    let marker = "// The search; spies-revised/src/bin/search.rs holds a verbatim copy";
    let tail = |path: &str| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let at = text
            .find(marker)
            .unwrap_or_else(|| panic!("{path}: no marker"));
        text[at..].to_string()
    };
    let dir = env!("CARGO_MANIFEST_DIR");
    assert_eq!(
        tail(&format!("{dir}/src/bin/search.rs")),
        tail(&format!("{dir}/../spies-any-n/src/main.rs")),
        "src/bin/search.rs drifted from solutions/spies-any-n/src/main.rs"
    );
}

#[test]
fn stored_board_is_what_the_search_prints() {
    let run = |bin: &str| {
        let out = judge_kit::testing::run(bin, &[]);
        assert!(out.status.success(), "{bin}");
        out.stdout
    };
    assert_eq!(
        run(env!("CARGO_BIN_EXE_spies-revised")),
        run(env!("CARGO_BIN_EXE_spies-revised-search"))
    );
}
