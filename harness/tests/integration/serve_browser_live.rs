//! `judge serve`'s live pages in a real browser (headless Chromium through
//! WebDriver): quick navigation never stalls on the browser's six
//! connections to a host, and a verdict that came before a page's event
//! stream opened is shown all the same.

use std::time::{Duration, Instant};

use fantoccini::Locator;

use crate::serve_browser::{
    Driver, browser, log_in, session, shot, submit_file, text_of, wait_for_text,
};
use crate::serve_server::{Server, Site, submitted_id};

const USERS: &str = "user,display name,team,role\nalice,Alice,red,participant\n";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn twenty_quick_page_views_never_wait_for_a_connection() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;
        let pages = [
            "/",
            "/scoreboard",
            "/submissions",
            "/problems/sum",
            "/account",
        ];
        let mut slowest = Duration::ZERO;
        for n in 0..20 {
            let page = pages[n % pages.len()];
            let asked = Instant::now();
            client.goto(&format!("{}{page}", server.url)).await.unwrap();
            let took = asked.elapsed();
            slowest = slowest.max(took);
            // A page whose connections are all taken waits for a free one
            // (45 to 60 s in Chromium): far longer than any page takes.
            assert!(
                took < Duration::from_secs(10),
                "view {n} of {page} took {took:?}"
            );
        }
        // Back and forward through the cache: the streams come back.
        client.back().await.unwrap();
        client.back().await.unwrap();
        client.forward().await.unwrap();
        let live = "return document.documentElement.getAttribute('data-live') || '';";
        wait_for_text(&client, live, "connected").await;
        eprintln!("twenty page views, the slowest {slowest:?}");
        client.close().await.unwrap();
    });
}

#[test]
fn a_verdict_before_the_stream_opens_is_shown() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let site = Site::new(USERS);
    let lab = site.write("lab.toml", "[limits]\nsubmissions-per-minute = 60\n");
    let server = Server::start(&site, &["--session", lab.to_str().unwrap()]);
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    // Built once, so that each later submission's RE comes at once: often
    // before the browser's page has opened its stream.
    let mut warm = server.client();
    warm.login("alice", &site.password("alice"));
    let first = submitted_id(&warm.submit("sum", &site.submission("sum/RE/panic.rs")));
    assert_eq!(warm.verdict(first).0, "RE");
    runtime().block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;
        let file = site.submission("sum/RE/panic.rs");
        for n in 0..8 {
            client
                .goto(&format!("{}/problems/sum", server.url))
                .await
                .unwrap();
            submit_file(&client, &file).await;
            let status = "return document.querySelector('[data-status]').textContent.trim();";
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let shown = text_of(&client, status).await;
                if shown == "RE" {
                    break;
                }
                if Instant::now() > deadline {
                    shot(&client, "verdict-missed.png").await;
                    panic!("submission {n} of 8 still shows {shown:?} after 30 s");
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
        client.close().await.unwrap();
    });
}

#[test]
fn a_stream_opened_after_a_verdict_starts_with_it() {
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let cookie = alice.cookie_header();
    let id = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    assert_eq!(alice.verdict(id).0, "AC");
    // The page's stream opens only now, after the verdict.
    let events = crate::serve::follow_events(&server.url, cookie, "\"verdict\":\"AC\"");
    let seen = events
        .recv_timeout(Duration::from_secs(20))
        .expect("the stream said something");
    assert!(
        seen.contains(&format!("\"entry\":{id}")) && seen.contains("\"verdict\":\"AC\""),
        "{seen}"
    );
}

/// A copy of the `guess` fixture named `id` whose referee, after the right
/// answer, reads to the end of the player's input (anything more is
/// wrong), as many referees do: the game is won only once the input ends.
fn guess_to_the_end(site: &Site, id: &str) {
    let dir = site.root().join("problems").join(id);
    crate::support::copy_dir(&site.root().join("problems/guess"), &dir);
    let toml = std::fs::read_to_string(dir.join("problem.toml"))
        .unwrap()
        .replace("id = \"guess\"", &format!("id = \"{id}\""));
    std::fs::write(dir.join("problem.toml"), toml).unwrap();
    let referee = std::fs::read_to_string(dir.join("interactor.rs"))
        .unwrap()
        .replace(
            "(Some(\"!\"), Some(y)) if y == secret => verdict(42,",
            "(Some(\"!\"), Some(y)) if y == secret => verdict(if lines.any(|l| !l.unwrap_or_default().trim().is_empty()) { 43 } else { 42 },",
        );
    assert!(
        referee.contains("lines.any"),
        "the fixture's referee changed"
    );
    std::fs::write(dir.join("interactor.rs"), referee).unwrap();
}

#[test]
fn a_won_game_finishes_on_the_play_page() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let site = Site::new(USERS);
    guess_to_the_end(&site, "guess-to-the-end");
    let lab = site.write("lab.toml", "problems = [\"guess-to-the-end\"]\n");
    let server = Server::start(&site, &["--session", lab.to_str().unwrap()]);
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;
        let page = format!("{}/problems/guess-to-the-end/play", server.url);
        client.goto(&page).await.unwrap();
        // A form's button clicked, and its answer's page loaded (marked
        // pages are old ones).
        let click = |value: &'static str| {
            let client = client.clone();
            async move {
                client
                    .execute("window.judgeOld = true; return null;", Vec::new())
                    .await
                    .unwrap();
                client
                    .find(Locator::Css(&format!("button[value={value}]")))
                    .await
                    .unwrap()
                    .click()
                    .await
                    .unwrap();
                let loaded = "return !window.judgeOld && document.readyState === 'complete' \
                              ? 'loaded' : '';";
                wait_for_text(&client, loaded, "loaded").await;
            }
        };
        click("start").await;
        // The page after Start shows the referee's first words.
        let transcript = "return (document.getElementById('transcript') || {}).textContent || '';";
        assert!(text_of(&client, transcript).await.contains("10"));
        for line in ["? 5", "! 7"] {
            client
                .find(Locator::Css("input[name=line]"))
                .await
                .unwrap()
                .send_keys(line)
                .await
                .unwrap();
            click("move").await;
        }
        let result = "return (document.getElementById('result') || {}).textContent || '';";
        assert_eq!(
            text_of(&client, result).await,
            "",
            "the referee waits for the end of the input"
        );
        click("finish").await;
        let said = wait_for_text(&client, result, "You win (AC)").await;
        assert!(said.contains("found in 1 questions"), "{said}");
        // The game stays on the page, scrolled to its end.
        assert!(text_of(&client, transcript).await.contains("! 7"));
        let in_view = "var r = document.getElementById('newest').getBoundingClientRect(); \
                       return r.top <= window.innerHeight ? 'seen' : 'below';";
        assert_eq!(text_of(&client, in_view).await, "seen");
        shot(&client, "game-won.png").await;
        // Giving up keeps the game on the page too.
        click("start").await;
        click("stop").await;
        assert!(text_of(&client, result).await.contains("You gave up"));
        client.close().await.unwrap();
    });
}

#[test]
fn pasted_code_comes_back_with_the_message_and_is_guessed_when_it_can_be() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let site = Site::new(USERS);
    let server = Server::start(&site, &[]);
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;
        client.goto(&format!("{}/problems/sum", server.url)).await.unwrap();
        let unclear = "my answer is forty-two";
        client.find(Locator::Css("textarea[name=source]")).await.unwrap().send_keys(unclear).await.unwrap();
        client.find(Locator::Css("form.submit button")).await.unwrap().click().await.unwrap();
        let error = "return (document.getElementById('submit-error') || {}).textContent || '';";
        wait_for_text(&client, error, "Which language").await;
        let kept = text_of(&client, "return document.querySelector('textarea[name=source]').value;").await;
        assert_eq!(kept, unclear, "the pasted code is kept");
        shot(&client, "paste-refused.png").await;
        // Rust, pasted with the language left on "guess": taken.
        let source = std::fs::read_to_string(site.submission("sum/AC/sum.rs")).unwrap();
        client
            .execute(
                "document.querySelector('textarea[name=source]').value = arguments[0]; return null;",
                vec![serde_json::Value::String(source)],
            )
            .await
            .unwrap();
        client.find(Locator::Css("form.submit button")).await.unwrap().click().await.unwrap();
        client.wait().for_element(Locator::Css("[data-live=submission]")).await.unwrap();
        let language = text_of(&client, "return document.querySelector('table.facts').textContent;").await;
        assert!(language.contains("rust"), "{language}");
        client.close().await.unwrap();
    });
}

/// A browser session as a phone shows pages: 390 CSS pixels wide.
async fn phone(
    driver: &Driver,
    chromium: &std::path::Path,
    profile: &std::path::Path,
) -> fantoccini::Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run",
                format!("--user-data-dir={}", profile.display()),
            ],
            "mobileEmulation": {
                "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 3.0, "touch": true },
            },
        }),
    );
    fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

/// Whether every element `selector` finds lies within the viewport's width
/// (its left and right edges); what is not, as text.
async fn outside_the_screen(client: &fantoccini::Client, selector: &str) -> String {
    let script = format!(
        "var out = []; document.querySelectorAll({selector:?}).forEach(function (e) {{ \
           var r = e.getBoundingClientRect(); \
           if (r.width > 0 && (r.left < 0 || r.right > window.innerWidth + 1)) {{ \
             out.push(e.textContent.trim().slice(0, 20) + ' at ' + Math.round(r.left) + '..' + Math.round(r.right)); }} }}); \
         return out.length ? out.join('; ') + ' (width ' + window.innerWidth + ')' : 'none';"
    );
    text_of(client, &script).await
}

#[test]
fn on_a_phone_every_tables_key_column_is_in_view() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let site = Site::new(USERS);
    let lab = site.write(
        "lab.toml",
        "title = \"Lab 3 of the spring term: games and puzzles\"\n\
         problems = [\"sum\", \"guess\"]\n[limits]\nsubmissions-per-minute = 60\n",
    );
    let server = Server::start(&site, &["--session", lab.to_str().unwrap()]);
    let mut alice = server.client();
    alice.login("alice", &site.password("alice"));
    let wrong = submitted_id(&alice.submit("sum", &site.submission("sum/WA/off_by_one.rs")));
    assert_eq!(alice.verdict(wrong).0, "WA");
    let right = submitted_id(&alice.submit("sum", &site.submission("sum/AC/sum.rs")));
    assert_eq!(alice.verdict(right).0, "AC");
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let client = phone(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;
        let nav = "return String(document.querySelector('header nav').getBoundingClientRect().height);";
        let height: f64 = text_of(&client, nav).await.parse().unwrap();
        assert!(height < 60.0, "the menu takes {height} px: more than one line");
        client.goto(&format!("{}/submissions", server.url)).await.unwrap();
        assert_eq!(outside_the_screen(&client, "td.status, th:last-child").await, "none");
        shot(&client, "phone-submissions.png").await;
        client.goto(&format!("{}/scoreboard", server.url)).await.unwrap();
        assert_eq!(outside_the_screen(&client, "th.total, td.total, td.who").await, "none");
        shot(&client, "phone-scoreboard.png").await;
        client.goto(&format!("{}/submissions/{wrong}", server.url)).await.unwrap();
        let diff = "var d = document.querySelector('pre.diff'); \
                    if (!d) { return 'no diff'; } var r = d.getBoundingClientRect(); \
                    return r.left >= 0 && r.left < window.innerWidth - 50 ? 'seen' : 'at ' + r.left;";
        assert_eq!(text_of(&client, diff).await, "seen");
        shot(&client, "phone-diff.png").await;
        client.close().await.unwrap();
    });
}

#[test]
fn a_clarification_is_asked_answered_and_seen_live() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let users = "user,display name,team,role\nalice,Alice,red,participant\n\
                 bob,Bob,blue,participant\nteacher,The Teacher,,jury\n";
    let site = Site::new(users);
    let server = Server::start(&site, &[]);
    let driver = Driver::start(&driver);
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        log_in(&client, &server.url, "alice", &site.password("alice")).await;
        client
            .goto(&format!("{}/clarifications", server.url))
            .await
            .unwrap();
        client
            .find(Locator::Css(
                "form.clarify select[name=problem] option[value=sum]",
            ))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        client
            .find(Locator::Css("form.clarify textarea[name=text]"))
            .await
            .unwrap()
            .send_keys("May the numbers be negative?")
            .await
            .unwrap();
        client
            .find(Locator::Css("form.clarify button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let listed = "return (document.getElementById('clarifications') || {}).textContent || '';";
        wait_for_text(&client, listed, "May the numbers be negative?").await;

        // Bob does not see Alice's question; the jury does, with a form.
        let mut bob = server.client();
        bob.login("bob", &site.password("bob"));
        assert!(!bob.get("/clarifications").body.contains("negative"));
        let mut teacher = server.client();
        teacher.login("teacher", &site.password("teacher"));
        let queue = teacher.get("/clarifications").body;
        assert!(
            queue.contains("negative") && queue.contains("not answered yet"),
            "{queue}"
        );
        let question = crate::serve_server::hidden(&queue, "reply_to").expect("an answer form");

        // Alice reads a statement meanwhile; the answer comes live.
        client
            .goto(&format!("{}/problems/sum", server.url))
            .await
            .unwrap();
        let live = "return document.documentElement.getAttribute('data-live') || '';";
        wait_for_text(&client, live, "connected").await;
        let csrf = teacher.csrf();
        let answered = teacher.post_form(
            "/jury/clarifications",
            &[
                ("csrf", &csrf),
                ("reply_to", &question),
                ("to", "asker"),
                ("text", "No: see the constraints."),
            ],
        );
        assert_eq!(answered.status, 303, "{}", answered.body);
        let badge = "return (document.querySelector('[data-badge]') || {}).textContent || '';";
        wait_for_text(&client, badge, "1").await;
        shot(&client, "clarification-badge.png").await;
        client
            .find(Locator::Css("a.clarifications"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for_text(&client, listed, "No: see the constraints.").await;
        assert_eq!(
            text_of(&client, badge).await.trim(),
            "",
            "seen: the badge is gone"
        );
        assert!(
            !bob.get("/clarifications")
                .body
                .contains("see the constraints")
        );

        // An announcement reaches everybody.
        let announced = teacher.post_form(
            "/jury/clarifications",
            &[
                ("csrf", &csrf),
                ("to", "everybody"),
                ("text", "The session ends at noon."),
            ],
        );
        assert_eq!(announced.status, 303);
        wait_for_text(&client, listed, "The session ends at noon.").await;
        assert!(
            bob.get("/clarifications")
                .body
                .contains("The session ends at noon.")
        );
        client.close().await.unwrap();
    });
}
