//! The store's schema, as a list of migrations applied in order. The
//! database's `user_version` is the number of migrations applied; opening a
//! store applies the missing ones in one transaction. A migration, once
//! released, is never edited: a change is a new migration at the end.
//! `docs/store.md` describes every table and column.

/// Migration `n` (1-based) brings the schema from version `n - 1` to `n`.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: runs, the problems they graded, submissions, test results, and
    // files that matched no problem.
    "
    CREATE TABLE runs (
        id            INTEGER PRIMARY KEY,
        started_at    TEXT NOT NULL,
        finished_at   TEXT,
        command       TEXT NOT NULL,
        judge_version TEXT NOT NULL,
        isolation     TEXT NOT NULL,
        machine       TEXT NOT NULL,
        partition     TEXT,
        source        TEXT,
        merged_from   TEXT,
        interrupted   INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE problems (
        run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        problem       TEXT NOT NULL,
        title         TEXT NOT NULL,
        time_ms       INTEGER NOT NULL,
        wall_ms       INTEGER NOT NULL,
        memory_kib    INTEGER NOT NULL,
        tests         INTEGER NOT NULL,
        PRIMARY KEY (run_id, problem)
    );
    CREATE TABLE submissions (
        id            INTEGER PRIMARY KEY,
        run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        student       TEXT,
        problem       TEXT NOT NULL,
        path          TEXT,
        content_hash  TEXT,
        language      TEXT,
        build_hash    TEXT,
        verdict       TEXT,
        score         REAL,
        message       TEXT,
        skipped_tests INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX submissions_run ON submissions(run_id);
    CREATE TABLE test_results (
        id              INTEGER PRIMARY KEY,
        submission_id   INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
        ordinal         INTEGER NOT NULL,
        test            TEXT NOT NULL,
        test_group      TEXT NOT NULL,
        verdict         TEXT NOT NULL,
        cpu_ms          INTEGER NOT NULL,
        wall_ms         INTEGER NOT NULL,
        waited_ms       INTEGER NOT NULL,
        memory_kib      INTEGER NOT NULL,
        output_bytes    INTEGER NOT NULL,
        termination     TEXT,
        score           REAL,
        detail          TEXT,
        diff_line       INTEGER,
        diff_token      INTEGER,
        diff_expected   TEXT,
        diff_actual     TEXT,
        diff_text       TEXT,
        stderr          TEXT NOT NULL,
        transcript      TEXT,
        timing_runs     TEXT,
        timing_unstable INTEGER NOT NULL,
        cache_key       TEXT,
        reused          INTEGER NOT NULL
    );
    CREATE INDEX test_results_submission ON test_results(submission_id);
    CREATE INDEX test_results_cache ON test_results(cache_key);
    CREATE TABLE unmatched (
        run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        student       TEXT,
        path          TEXT NOT NULL,
        reason        TEXT NOT NULL
    );
    ",
    // 2: what a package's generator made and what its validator said, for
    // `verify` to check an unchanged package without running them again.
    "
    CREATE TABLE tool_results (
        key         TEXT PRIMARY KEY,
        outcome     TEXT NOT NULL,
        recorded_at TEXT NOT NULL
    );
    ",
    // 3: the time limit a Kattis package's own submissions settled, for
    // `test` and `grade` to judge an unchanged package without running
    // them again.
    "
    CREATE TABLE settled_time_limits (
        key              TEXT PRIMARY KEY,
        problem          TEXT NOT NULL,
        time_us          INTEGER NOT NULL,
        timeout_floor_us INTEGER,
        explanation      TEXT NOT NULL,
        warnings         TEXT NOT NULL,
        recorded_at      TEXT NOT NULL
    );
    ",
    // 4: judge serve: accounts, their logins and API tokens, sessions (each
    // with the run its judged submissions are recorded under), the
    // submissions a server received (kept with their source until judged),
    // and each judging of one (a rejudge is a new judging).
    "
    CREATE TABLE accounts (
        id            INTEGER PRIMARY KEY,
        username      TEXT NOT NULL UNIQUE,
        display_name  TEXT NOT NULL,
        team          TEXT,
        role          TEXT NOT NULL CHECK (role IN ('participant', 'jury')),
        password_hash TEXT NOT NULL,
        created_at    TEXT NOT NULL
    );
    CREATE TABLE logins (
        token_hash    TEXT PRIMARY KEY,
        account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        csrf          TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        expires_at    TEXT NOT NULL
    );
    CREATE TABLE api_tokens (
        token_hash    TEXT PRIMARY KEY,
        account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at    TEXT NOT NULL
    );
    CREATE TABLE sessions (
        id            INTEGER PRIMARY KEY,
        name          TEXT NOT NULL UNIQUE,
        run_id        INTEGER NOT NULL REFERENCES runs(id),
        title         TEXT NOT NULL,
        created_at    TEXT NOT NULL
    );
    CREATE TABLE entries (
        id            INTEGER PRIMARY KEY,
        session_id    INTEGER NOT NULL REFERENCES sessions(id),
        account_id    INTEGER NOT NULL REFERENCES accounts(id),
        problem       TEXT NOT NULL,
        language      TEXT NOT NULL,
        file_name     TEXT NOT NULL,
        source        BLOB NOT NULL,
        submitted_at  TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('queued', 'running', 'judged'))
    );
    CREATE INDEX entries_session ON entries(session_id, status);
    CREATE TABLE judgings (
        id            INTEGER PRIMARY KEY,
        entry_id      INTEGER NOT NULL REFERENCES entries(id),
        started_at    TEXT NOT NULL,
        finished_at   TEXT,
        submission_id INTEGER REFERENCES submissions(id) ON DELETE SET NULL,
        verdict       TEXT,
        score         REAL,
        valid         INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX judgings_entry ON judgings(entry_id);
    ",
    // 5: a class graded against a deadline (the run's deadline and late
    // rule, each submission's commit and time) and by a grading policy.
    "
    ALTER TABLE runs ADD COLUMN deadline TEXT;
    ALTER TABLE runs ADD COLUMN late_rule TEXT;
    ALTER TABLE runs ADD COLUMN policy TEXT;
    ALTER TABLE submissions ADD COLUMN commit_id TEXT;
    ALTER TABLE submissions ADD COLUMN handed_in_at TEXT;
    ALTER TABLE submissions ADD COLUMN handed_in_from TEXT;
    ALTER TABLE submissions ADD COLUMN late_seconds INTEGER;
    ",
    // 6: many machines. Who judged each submission (a worker's name, its
    // isolation line and judge version; NULL: the run's own); the judging
    // queue (`jobs`: a class's file or a served submission, named with the
    // hash of its problem's package, claimed under a lease with a fencing
    // number); the workers taking jobs. Times in the queue are
    // milliseconds since 1970 on the database's clock.
    "
    ALTER TABLE submissions ADD COLUMN worker TEXT;
    ALTER TABLE submissions ADD COLUMN isolation TEXT;
    ALTER TABLE submissions ADD COLUMN judge_version TEXT;
    CREATE TABLE jobs (
        id            INTEGER PRIMARY KEY,
        run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        entry_id      INTEGER REFERENCES entries(id) ON DELETE CASCADE,
        problem       TEXT NOT NULL,
        package_hash  TEXT NOT NULL,
        time_us       INTEGER NOT NULL,
        wall_us       INTEGER NOT NULL,
        student       TEXT,
        path          TEXT NOT NULL,
        file_name     TEXT NOT NULL,
        language      TEXT NOT NULL,
        source        BLOB NOT NULL,
        fail_fast     INTEGER NOT NULL,
        turn          INTEGER NOT NULL DEFAULT 0,
        state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
        fence         INTEGER NOT NULL DEFAULT 0,
        worker        TEXT,
        lease_until   INTEGER,
        claims        INTEGER NOT NULL DEFAULT 0,
        queued_at     INTEGER NOT NULL,
        claimed_at    INTEGER,
        finished_at   INTEGER,
        submission_id INTEGER REFERENCES submissions(id) ON DELETE SET NULL
    );
    CREATE INDEX jobs_waiting ON jobs(state, turn, id);
    CREATE INDEX jobs_run ON jobs(run_id);
    CREATE TABLE workers (
        name          TEXT PRIMARY KEY,
        machine       TEXT NOT NULL,
        judge_version TEXT NOT NULL,
        isolation     TEXT NOT NULL,
        threads       INTEGER NOT NULL,
        running       INTEGER NOT NULL DEFAULT 0,
        judged        INTEGER NOT NULL DEFAULT 0,
        refused       INTEGER NOT NULL DEFAULT 0,
        state         TEXT NOT NULL,
        started_at    INTEGER NOT NULL,
        heartbeat_at  INTEGER NOT NULL
    );
    ",
    // 7: judge serve on an open network. An account can be disabled (no
    // login, every login and token ended); an API token expires, says when
    // it was last used and what made it, so that its owner and the jury
    // can list and revoke it. A token from before this migration has no
    // expiry and is no longer accepted.
    "
    ALTER TABLE accounts ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
    ALTER TABLE api_tokens ADD COLUMN last_used_at TEXT;
    ALTER TABLE api_tokens ADD COLUMN label TEXT;
    CREATE INDEX logins_account ON logins(account_id);
    CREATE INDEX api_tokens_account ON api_tokens(account_id);
    CREATE INDEX entries_account ON entries(session_id, account_id);
    ",
    // 8: judge serve's clarifications: a participant's question to the
    // jury, or the jury's message to one participant or to everybody,
    // perhaps in reply to another, perhaps about one problem.
    "
    CREATE TABLE clarifications (
        id            INTEGER PRIMARY KEY,
        session_id    INTEGER NOT NULL REFERENCES sessions(id),
        from_account  INTEGER REFERENCES accounts(id),
        to_account    INTEGER REFERENCES accounts(id),
        jury_account  INTEGER REFERENCES accounts(id),
        reply_to      INTEGER REFERENCES clarifications(id),
        problem       TEXT,
        text          TEXT NOT NULL,
        sent_at       TEXT NOT NULL,
        CHECK (from_account IS NULL OR to_account IS NULL)
    );
    CREATE INDEX clarifications_session ON clarifications(session_id);
    ",
    // 9: what the jury changed of a running session on the web: its
    // start, end and freeze (NULL: the session file's), and when the
    // frozen scoreboard was released to everybody.
    "
    ALTER TABLE sessions ADD COLUMN start_at TEXT;
    ALTER TABLE sessions ADD COLUMN end_at TEXT;
    ALTER TABLE sessions ADD COLUMN freeze_at TEXT;
    ALTER TABLE sessions ADD COLUMN released_at TEXT;
    ",
    // 10: a rejudging under review: a problem's submissions judged again
    // as a dry run, each new judging kept beside the one in force
    // (`valid = 0`, its report under the review's own run) until the jury
    // applies or cancels it.
    "
    CREATE TABLE reviews (
        id            INTEGER PRIMARY KEY,
        session_id    INTEGER NOT NULL REFERENCES sessions(id),
        run_id        INTEGER NOT NULL REFERENCES runs(id),
        problem       TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        state         TEXT NOT NULL CHECK (state IN ('open', 'applied', 'cancelled'))
    );
    ALTER TABLE judgings ADD COLUMN review_id INTEGER REFERENCES reviews(id);
    ",
    // 11: a review's scope beyond one problem: one participant's
    // submissions, one language's, those submitted since a time, in any
    // combination (each NULL: any). A review of every problem keeps ''
    // in `problem`, which migration 10 made NOT NULL and SQLite cannot
    // relax. And how many submissions it covers, so that its page counts
    // those still queued.
    "
    ALTER TABLE reviews ADD COLUMN account_id INTEGER REFERENCES accounts(id);
    ALTER TABLE reviews ADD COLUMN language TEXT;
    ALTER TABLE reviews ADD COLUMN since TEXT;
    ALTER TABLE reviews ADD COLUMN covered INTEGER;
    ",
];

/// A migration as PostgreSQL reads it. The migrations are written once,
/// in SQLite's words; PostgreSQL's differ only in column types, so each
/// type word is replaced: 64-bit integers everywhere (ids from an
/// identity column), double precision for REAL, BYTEA for BLOB, and text
/// compared byte by byte (`COLLATE "C"`, SQLite's order) so that every
/// report sorts alike on both.
pub(super) fn postgres_ddl(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() * 5 / 4);
    let mut rest = sql;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '\'') {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        if rest.starts_with('\'') {
            // A quoted literal is copied as it is.
            let end = rest[1..].find('\'').map_or(rest.len(), |i| i + 2);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        out.push_str(match word {
            "INTEGER" if rest.starts_with(" PRIMARY KEY") => {
                "BIGINT GENERATED BY DEFAULT AS IDENTITY"
            }
            "INTEGER" => "BIGINT",
            "REAL" => "DOUBLE PRECISION",
            "BLOB" => "BYTEA",
            "TEXT" => "TEXT COLLATE \"C\"",
            other => other,
        });
    }
    out.push_str(rest);
    out
}

/// The columns of a submission row after `id` and `run_id`, in one place for
/// the writer and for merging.
pub(super) const SUBMISSION_COLUMNS: &str = "student, problem, path, content_hash, language, \
     build_hash, verdict, score, message, skipped_tests, commit_id, handed_in_at, handed_in_from, \
     late_seconds, worker, isolation, judge_version";

/// The columns of a test result after `id` and `submission_id`.
pub(super) const TEST_COLUMNS: &str = "ordinal, test, test_group, verdict, cpu_ms, wall_ms, \
     waited_ms, memory_kib, output_bytes, termination, score, detail, diff_line, diff_token, \
     diff_expected, diff_actual, diff_text, stderr, transcript, timing_runs, timing_unstable, \
     cache_key, reused";

/// The current schema version.
pub const VERSION: usize = MIGRATIONS.len();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_reads_the_migrations_with_its_own_types() {
        let sql = "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, \
                   r REAL, b BLOB, s TEXT CHECK (s IN ('TEXT', 'x')), run_id INTEGER);";
        assert_eq!(
            postgres_ddl(sql),
            "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, \
             n BIGINT NOT NULL, r DOUBLE PRECISION, b BYTEA, s TEXT COLLATE \"C\" \
             CHECK (s IN ('TEXT', 'x')), run_id BIGINT);"
        );
    }
}
