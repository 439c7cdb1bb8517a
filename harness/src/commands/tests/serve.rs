//! `judge users import` (accounts from a CSV file, passwords written
//! once), and `judge submit` against a server on 127.0.0.1 that answers
//! as `judge serve` does.

use super::{Bench, double, double_script, write};
use crate::cli::UsersCommand;
use crate::exit_codes;
use crate::serve::users;

#[test]
fn users_import_creates_accounts_and_writes_their_passwords_once() {
    let mut bench = Bench::new(double, double_script);
    let root = bench.root.path().to_path_buf();
    write(
        &root,
        "users.csv",
        "user,display name,team,role\nada,Ada L.,red,participant\nbob,,blue,jury\n",
    );
    let import = |file: &str, passwords: &str| UsersCommand::Import {
        file: root.join(file),
        passwords: Some(root.join(passwords)),
        reset_passwords: false,
        db: Some(root.join("serve.db")),
    };

    let code = users(&mut bench.ctx, &import("users.csv", "first.csv")).unwrap();
    assert_eq!(code, exit_codes::OK);
    let text = bench.text();
    let written = root.join("first.csv");
    assert_eq!(
        text,
        format!(
            "2 accounts created, 0 updated\nnew passwords written to {} (hand them out, then delete the file)\n",
            written.display()
        )
    );
    let passwords = std::fs::read_to_string(&written).unwrap();
    let rows: Vec<&str> = passwords.lines().collect();
    assert_eq!(rows.len(), 3, "{passwords}");
    assert!(rows[1].starts_with("ada,") && rows[2].starts_with("bob,"));
    let mode = std::os::unix::fs::PermissionsExt::mode(&written.metadata().unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "only its owner reads it");

    // Again: the accounts are updated, nobody gets a new password.
    users(&mut bench.ctx, &import("users.csv", "second.csv")).unwrap();
    assert_eq!(
        &bench.text()[text.len()..],
        "0 accounts created, 2 updated\n"
    );
    assert!(!root.join("second.csv").exists());

    // A bad row names its line and field; nothing is imported.
    write(&root, "bad.csv", "user,role\ncat,participant\ndan,admin\n");
    let error = users(&mut bench.ctx, &import("bad.csv", "third.csv")).unwrap_err();
    let error = error.to_string();
    let wanted = "bad.csv:3: key `role`: `admin`: write `participant` or `jury`";
    assert!(error.ends_with(wanted), "{error}");
    assert!(!root.join("third.csv").exists());
    assert_eq!(bench.boxes.runs(), 0);
}
