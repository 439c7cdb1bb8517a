//! `judge serve`'s play page: a person plays an interactive problem
//! against its referee through forms, as `judge play` does in a terminal.

use std::time::{Duration, Instant};

use crate::serve_server::{Server, Site};

const USERS: &str = "user,display name,role\nalice,Alice,participant\nbob,Bob,participant\n";

#[test]
fn a_participant_plays_the_referee_and_wins() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    assert_eq!(
        alice.get("/problems/sum/play").status,
        404,
        "not interactive"
    );
    let page = alice.get("/problems/guess/play");
    assert!(page.body.contains("Start a game"), "{}", page.body);
    assert_eq!(
        alice
            .post_form(
                "/problems/guess/play",
                &[("csrf", "x"), ("action", "start")]
            )
            .status,
        403
    );
    let csrf = alice.csrf();
    let play = |alice: &mut crate::serve_server::Client, fields: &[(&str, &str)]| {
        let reply = alice.post_form("/problems/guess/play", fields);
        assert_eq!(reply.status, 303, "{}", reply.body);
        alice.get("/problems/guess/play").body
    };
    // The fixture's first test: numbers 1 to 10, the secret is 7.
    let page = play(&mut alice, &[("csrf", &csrf), ("action", "start")]);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut page = page;
    while !page.contains("<span class=\"referee\">10</span>") {
        assert!(
            Instant::now() < deadline,
            "the referee said nothing: {page}"
        );
        std::thread::sleep(Duration::from_millis(100));
        page = alice.get("/problems/guess/play").body;
    }
    let page = play(
        &mut alice,
        &[("csrf", &csrf), ("action", "move"), ("line", "? 5")],
    );
    assert!(page.contains("<span class=\"you\">? 5</span>"), "{page}");
    assert!(
        page.contains("<span class=\"referee\">&#62;</span>"),
        "{page}"
    );

    let mut bob = server.client();
    bob.login("bob", &site.password("bob"));
    let his = bob.get("/problems/guess/play").body;
    assert!(
        !his.contains("? 5") && his.contains("Start a game"),
        "{his}"
    );

    let mut page = play(
        &mut alice,
        &[("csrf", &csrf), ("action", "move"), ("line", "! 7")],
    );
    while !page.contains("You win (AC)") {
        assert!(Instant::now() < deadline, "no result: {page}");
        std::thread::sleep(Duration::from_millis(100));
        page = alice.get("/problems/guess/play").body;
    }
    assert!(page.contains("found in 1 questions"), "{page}");
}
