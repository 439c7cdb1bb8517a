//! `judge serve`'s rejudging under review, by scope: a problem, a
//! participant, a language, the submissions since a time, or any
//! combination; only what the scope covers is judged again, and a scope
//! that names what the session lacks, or covers nothing, makes no review.

use std::time::{Duration, SystemTime};

use crate::serve_server::{Client, JUDGE_DEADLINE, Server, Site, submitted_id};

const USERS: &str = "user,display name,team,role\n\
                     alice,Alice Liddell,red,participant\n\
                     bob,Bob Builder,blue,participant\n\
                     teacher,The Teacher,,jury\n";

const SESSION: &str = "title = \"Lab 4\"\nproblems = [\"sum\", \"guess\"]\n\
                       [limits]\nsubmissions-per-minute = 30\n";

fn lab() -> (Site, Server) {
    let site = Site::new(USERS);
    let session = site.write("lab4.toml", SESSION);
    let server = Server::start(&site, &["--session", session.to_str().unwrap()]);
    (site, server)
}

fn logged_in(site: &Site, server: &Server, user: &str) -> Client {
    let mut client = server.client();
    client.login(user, &site.password(user));
    client
}

/// The submissions a review's page lists (each row links to one), in order.
fn rows_of(page: &str) -> Vec<i64> {
    let table = &page[page.find("id=\"review\"").expect("the review's table")..];
    table
        .split("<a href=\"/submissions/")
        .skip(1)
        .filter_map(|rest| rest[..rest.find('"')?].parse().ok())
        .collect()
}

/// Starts a review of `scope`, waits until every submission it covers is
/// judged again; its page.
fn review(teacher: &mut Client, scope: &[(&str, &str)]) -> String {
    let csrf = teacher.csrf();
    let mut fields = vec![("csrf", csrf.as_str())];
    fields.extend_from_slice(scope);
    let started = teacher.post_form("/jury/reviews", &fields);
    assert_eq!(started.status, 303, "{}", started.body);
    let at = started.location.unwrap();
    let deadline = std::time::Instant::now() + JUDGE_DEADLINE;
    loop {
        let page = teacher.get(&at).body;
        // "3 of 5 judged": the review counts those still queued.
        let counts = page.split(" judged, ").next().and_then(|head| {
            let words: Vec<&str> = head.rsplit(' ').take(3).collect();
            Some((words.get(2)?.parse::<usize>().ok()?, words[0].parse().ok()?))
        });
        if counts.is_some_and(|(judged, covered): (usize, usize)| judged == covered) {
            return page;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not judged in time: {page}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_review_judges_again_only_the_submissions_its_scope_covers() {
    let (site, server) = lab();
    let mut alice = logged_in(&site, &server, "alice");
    let mut bob = logged_in(&site, &server, "bob");
    let alice_rust = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    let alice_python = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.py")));
    let alice_guess =
        submitted_id(&alice.submit("guess", &site.submission("guess/AC/binary_search.rs")));
    let bob_rust = submitted_id(&bob.submit("sum", &site.submission("sum/AC/sum.rs")));
    for id in [alice_rust, alice_python, alice_guess] {
        assert_eq!(alice.verdict(id).0, "AC");
    }
    assert_eq!(bob.verdict(bob_rust).0, "AC");
    // A later submission, a whole second after a time the jury picks.
    let picked = SystemTime::now() + Duration::from_secs(1);
    std::thread::sleep(Duration::from_millis(2100));
    let bob_later = submitted_id(&bob.submit("sum", &site.submission("sum/AC/sum.py")));
    assert_eq!(bob.verdict(bob_later).0, "AC");
    let mut teacher = logged_in(&site, &server, "teacher");

    let by_bob = review(&mut teacher, &[("participant", "bob")]);
    assert_eq!(rows_of(&by_bob), [bob_rust, bob_later], "{by_bob}");
    assert!(
        by_bob.contains("every judged submission by bob"),
        "{by_bob}"
    );

    let in_python = review(&mut teacher, &[("language", "python")]);
    assert_eq!(rows_of(&in_python), [alice_python, bob_later]);

    let alice_sum = review(
        &mut teacher,
        &[("problem", "sum"), ("participant", "alice")],
    );
    assert_eq!(rows_of(&alice_sum), [alice_rust, alice_python]);
    assert!(
        alice_sum.contains("every judged submission of sum by alice"),
        "{alice_sum}"
    );

    // The time as a browser's date-time input sends it: no zone (UTC).
    let since = humantime::format_rfc3339_seconds(picked).to_string();
    let since = since.trim_end_matches('Z');
    let later = review(&mut teacher, &[("since", since)]);
    assert_eq!(rows_of(&later), [bob_later], "{later}");
    assert!(later.contains(&format!("since {since}Z")), "{later}");

    let everything = review(&mut teacher, &[]);
    assert_eq!(
        rows_of(&everything),
        [alice_rust, alice_python, alice_guess, bob_rust, bob_later]
    );
    assert!(everything.contains("every judged submission of the session"));

    // The list says what each review covers; nothing changed for anybody.
    let list = teacher.get("/jury/reviews").body;
    for covers in [
        "every judged submission by bob: open",
        "every judged submission in python: open",
        "every judged submission of sum by alice: open",
    ] {
        assert!(list.contains(covers), "{covers}: {list}");
    }
    assert!(
        teacher
            .get("/jury")
            .body
            .contains("every judged submission in python")
    );
    assert_eq!(alice.verdict(alice_python).0, "AC");
}

#[test]
fn a_scope_naming_what_the_session_lacks_or_covering_nothing_makes_no_review() {
    let (site, server) = lab();
    let mut teacher = logged_in(&site, &server, "teacher");
    let csrf = teacher.csrf();
    for (field, value, why) in [
        ("participant", "mallory", "nobody has the username mallory"),
        (
            "language",
            "cobol",
            "cobol is not a language of this session",
        ),
        (
            "problem",
            "knapsack",
            "knapsack is not a problem of this session",
        ),
        ("since", "yesterday", "since: a time like"),
    ] {
        let refused = teacher.post_form("/jury/reviews", &[("csrf", &csrf), (field, value)]);
        assert_eq!(refused.status, 400, "{field}: {}", refused.body);
        assert!(refused.body.contains(why), "{field}: {}", refused.body);
        // The form again, as it was filled in.
        assert!(
            refused.body.contains("action=\"/jury/reviews\""),
            "{}",
            refused.body
        );
        if field == "participant" {
            assert!(
                refused.body.contains("value=\"mallory\""),
                "{}",
                refused.body
            );
        }
    }
    // Nobody has submitted: a real scope covers nothing.
    let nothing = teacher.post_form(
        "/jury/reviews",
        &[("csrf", &csrf), ("problem", "sum"), ("participant", "bob")],
    );
    assert_eq!(nothing.status, 200, "{}", nothing.body);
    assert!(
        nothing
            .body
            .contains("Nothing to review: the scope (every judged submission of sum by bob)"),
        "{}",
        nothing.body
    );
    let list = teacher.get("/jury/reviews").body;
    assert!(!list.contains("/jury/reviews/1"), "{list}");
}
