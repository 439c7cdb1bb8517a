//! A real `judge serve` for the tests: the built binary on 127.0.0.1 port
//! 0 over a scratch problem root and a fresh store, started with a
//! deadline and killed by its PID when the test ends; and a small HTTP
//! client that keeps the login cookie.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::support::{Background, copy_dir, fixtures, judge_binary};

/// How long a server may take to start (it builds the problems' programs).
const START_DEADLINE: Duration = Duration::from_secs(120);
/// How long any one HTTP exchange may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a submission may take to be judged.
pub const JUDGE_DEADLINE: Duration = Duration::from_secs(120);

/// A problem root with the `sum` and `guess` fixtures and the
/// submissions, and the users' CSV imported into its store.
pub struct Site {
    pub dir: tempfile::TempDir,
    /// Passwords by user, from `judge users import`.
    pub passwords: Vec<(String, String)>,
}

impl Site {
    pub fn new(users: &str) -> Site {
        Site::with_store(users, None)
    }

    /// A site whose accounts go into the store `db` (default: judge.db).
    pub fn with_store(users: &str, db: Option<&str>) -> Site {
        let dir = tempfile::tempdir().unwrap();
        for problem in ["sum", "guess"] {
            copy_dir(
                &fixtures().join("problems").join(problem),
                &dir.path().join("problems").join(problem),
            );
        }
        copy_dir(
            &fixtures().join("submissions"),
            &dir.path().join("submissions"),
        );
        let csv = dir.path().join("users.csv");
        std::fs::write(&csv, users).unwrap();
        let out = crate::support::judge_at(dir.path())
            .args(["users", "import"])
            .arg(&csv)
            .args(db.map(|db| ["--db", db]).into_iter().flatten())
            .timeout(Duration::from_secs(60))
            .assert()
            .success();
        let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(said.contains("accounts created"), "{said}");
        let passwords = std::fs::read_to_string(dir.path().join("users-passwords.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(','))
            .map(|(u, p)| (u.to_string(), p.to_string()))
            .collect();
        Site { dir, passwords }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("judge.db")
    }

    pub fn password(&self, user: &str) -> String {
        self.passwords
            .iter()
            .find(|(u, _)| u == user)
            .map(|(_, p)| p.clone())
            .unwrap_or_else(|| panic!("no password for {user}"))
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn submission(&self, relative: &str) -> PathBuf {
        self.dir.path().join("submissions").join(relative)
    }
}

/// A running server, killed (SIGKILL, by PID) and reaped when dropped.
pub struct Server {
    child: Background,
    pub url: String,
    /// The first jury password, when this start created the account.
    pub jury_password: Option<String>,
    /// What it said until it judged.
    pub said: Vec<String>,
}

impl Server {
    pub fn start(site: &Site, extra: &[&str]) -> Server {
        Server::start_with(site, extra, |_| {})
    }

    /// A server whose command `configure` adjusts first (its environment,
    /// its limits).
    pub fn start_with(site: &Site, extra: &[&str], configure: impl FnOnce(&mut Command)) -> Server {
        let mut command = Command::new(judge_binary());
        command
            .args(["--color", "never", "--root"])
            .arg(site.root())
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        configure(&mut command);
        let (child, url, jury_password, said) =
            Server::wait_until_judging(Background::start(&mut command));
        Server {
            child,
            url,
            jury_password,
            said,
        }
    }

    /// Reads a starting server's lines until it judges: its address and
    /// the first jury password, if it made one.
    fn wait_until_judging(
        mut child: Background,
    ) -> (Background, String, Option<String>, Vec<String>) {
        let stdout = child.take_stdout();
        let (lines, said) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + START_DEADLINE;
        let mut url = None;
        let mut jury_password = None;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match said.recv_timeout(left) {
                Ok(line) => line,
                Err(_) => {
                    child.kill();
                    panic!("the server did not start in time; it said: {seen:?}");
                }
            };
            if let Some(at) = line.find("http://") {
                url = Some(
                    line[at..]
                        .split_whitespace()
                        .next()
                        .unwrap()
                        .trim_end_matches('/')
                        .to_string(),
                );
            }
            if let Some(rest) = line.strip_prefix("jury login: jury / ") {
                jury_password = Some(rest.trim().to_string());
            }
            // Listening comes first; judging once the problems are built.
            let done = line.starts_with("judging with");
            seen.push(line);
            if done {
                break;
            }
        }
        let url = url.unwrap_or_else(|| panic!("no address in {seen:?}"));
        (child, url, jury_password, seen)
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `signal` (a `libc::SIG*`) to the server.
    pub fn signal(&self, signal: i32) {
        self.child.signal(signal);
    }

    /// Waits at most `limit` for the server to end; its exit status.
    pub fn wait_within(&mut self, limit: Duration) -> std::process::ExitStatus {
        self.child.wait_within(limit)
    }

    /// The address it listens on.
    pub fn address(&self) -> std::net::SocketAddr {
        self.url
            .trim_start_matches("http://")
            .parse()
            .expect("the server's address")
    }

    /// SIGKILL, as a crash would.
    pub fn kill(mut self) {
        self.child.kill();
    }

    pub fn client(&self) -> Client {
        Client::new(&self.url)
    }
}

/// An HTTP response, read whole.
pub struct Reply {
    pub status: u16,
    pub location: Option<String>,
    pub content_type: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A browser without a script: cookies kept, redirects not followed.
pub struct Client {
    base: String,
    agent: ureq::Agent,
    cookies: Vec<(String, String)>,
}

impl Client {
    pub fn new(base: &str) -> Client {
        Client::with_timeout(base, REQUEST_TIMEOUT)
    }

    /// A client whose every exchange may take up to `timeout`.
    pub fn with_timeout(base: &str, timeout: Duration) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            // A fresh connection per request: a server that refuses an
            // upload early closes its connection, which a pooled next
            // request would find dead.
            .max_idle_connections(0)
            .proxy(None)
            .timeout_global(Some(timeout))
            .build()
            .into();
        Client {
            base: base.to_string(),
            agent,
            cookies: Vec::new(),
        }
    }

    /// The cookies as a `Cookie` header.
    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn take(&mut self, response: ureq::http::Response<ureq::Body>) -> Reply {
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or_default().to_string()))
            .collect();
        for (name, value) in &headers {
            if name.eq_ignore_ascii_case("set-cookie") {
                let pair = value.split(';').next().unwrap_or_default();
                if let Some((n, v)) = pair.split_once('=') {
                    self.cookies.retain(|(k, _)| k != n);
                    if !v.is_empty() {
                        self.cookies.push((n.to_string(), v.to_string()));
                    }
                }
            }
        }
        let find = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let location = find("location");
        let content_type = find("content-type").unwrap_or_default();
        let body = response.into_body().read_to_string().unwrap_or_default();
        Reply {
            status,
            location,
            content_type,
            headers,
            body,
        }
    }

    pub fn get(&mut self, path: &str) -> Reply {
        let response = self
            .agent
            .get(&format!("{}{path}", self.base))
            .header("Cookie", &self.cookie_header())
            .call()
            .unwrap();
        self.take(response)
    }

    pub fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let response = self
            .agent
            .post(&format!("{}{path}", self.base))
            .header("Cookie", &self.cookie_header())
            .send_form(fields.iter().copied())
            .unwrap();
        self.take(response)
    }

    /// A multipart form: text fields, and at most one file.
    pub fn post_multipart(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &[u8])>,
    ) -> Reply {
        let boundary = "judge-test-boundary-7d1f";
        let mut body: Vec<u8> = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                    .as_bytes(),
            );
        }
        if let Some((file_name, bytes)) = file {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                )
                .as_bytes(),
            );
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let response = self
            .agent
            .post(&format!("{}{path}", self.base))
            .header("Cookie", &self.cookie_header())
            .header(
                "Content-Type",
                &format!("multipart/form-data; boundary={boundary}"),
            )
            .send(&body[..]);
        match response {
            Ok(response) => self.take(response),
            // A server may refuse a large upload and close the connection
            // before the client has sent it all: status 0.
            Err(error) => Reply {
                status: 0,
                location: None,
                content_type: String::new(),
                headers: Vec::new(),
                body: error.to_string(),
            },
        }
    }

    /// Logs in through the form; the reply to the form's POST.
    pub fn login(&mut self, user: &str, password: &str) -> Reply {
        let form = self.get("/login");
        let token = hidden(&form.body, "csrf").expect("the login form has a token");
        self.post_form(
            "/login",
            &[("csrf", &token), ("username", user), ("password", password)],
        )
    }

    /// The login's CSRF token, from any page's logout form.
    pub fn csrf(&mut self) -> String {
        let page = self.get("/");
        hidden(&page.body, "csrf").expect("a logged-in page has the logout form")
    }

    /// Submits a file through the problem page's form; the new
    /// submission's id.
    pub fn submit(&mut self, problem: &str, file: &Path) -> Reply {
        let csrf = self.csrf();
        let bytes = std::fs::read(file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        self.post_multipart(
            "/submit",
            &[("csrf", &csrf), ("problem", problem), ("language", "auto")],
            Some((&name, &bytes)),
        )
    }

    /// Waits for a submission's verdict; its page once judged.
    pub fn verdict(&mut self, id: i64) -> (String, Reply) {
        let deadline = Instant::now() + JUDGE_DEADLINE;
        loop {
            let page = self.get(&format!("/submissions/{id}"));
            assert_eq!(page.status, 200, "{}", page.body);
            let status = status_of(&page.body);
            if status.len() <= 3 && status.chars().all(|c| c.is_ascii_uppercase()) {
                return (status, page);
            }
            assert!(
                Instant::now() < deadline,
                "submission {id} not judged in time: {status}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// A TCP connection to `to` from the loopback address `from` (any
/// 127.x.y.z: a second client machine as the server sees it).
pub fn connect_from(from: std::net::Ipv4Addr, to: std::net::SocketAddr) -> std::net::TcpStream {
    use rustix::net::{AddressFamily, SocketType, bind, connect, socket};
    let fd = socket(AddressFamily::INET, SocketType::STREAM, None).expect("a socket");
    bind(&fd, &std::net::SocketAddr::from((from, 0))).expect("bind a loopback address");
    connect(&fd, &to).expect("connect to the server");
    let stream = std::net::TcpStream::from(fd);
    stream.set_read_timeout(Some(REQUEST_TIMEOUT)).unwrap();
    stream
}

/// One HTTP/1.1 request from the loopback address `from`, read to its end
/// (`Connection: close`): the status and the whole response.
pub fn raw_request(
    from: std::net::Ipv4Addr,
    to: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = connect_from(from, to);
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, response)
}

/// A login through the form from the loopback address `from`: the
/// status of the form's POST.
pub fn login_from(
    from: std::net::Ipv4Addr,
    to: std::net::SocketAddr,
    user: &str,
    password: &str,
    extra: &[(&str, &str)],
) -> u16 {
    let (_, form) = raw_request(from, to, "GET", "/login", extra, "");
    let token = hidden(&form, "csrf").expect("the login form has a token");
    let cookie = form
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .and_then(|c| c.split(';').next())
        .expect("the login form sets its cookie")
        .to_string();
    let body = format!(
        "csrf={token}&username={user}&password={}",
        password.replace('&', "%26")
    );
    let mut headers = vec![
        ("Cookie", cookie.as_str()),
        ("Content-Type", "application/x-www-form-urlencoded"),
    ];
    headers.extend_from_slice(extra);
    raw_request(from, to, "POST", "/login", &headers, &body).0
}

/// The value of a hidden input named `name`.
pub fn hidden(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    Some(rest[..rest.find('"')?].to_string())
}

/// The status cell of a submission's page.
pub fn status_of(html: &str) -> String {
    let at = html.find("data-status>").expect("a status cell");
    let rest = &html[at + "data-status>".len()..];
    rest[..rest.find('<').unwrap()].trim().to_string()
}

/// The id a submit redirected to.
pub fn submitted_id(reply: &Reply) -> i64 {
    assert_eq!(reply.status, 303, "{}", reply.body);
    reply
        .location
        .as_deref()
        .and_then(|l| l.strip_prefix("/submissions/"))
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("not a submission: {:?}", reply.location))
}
