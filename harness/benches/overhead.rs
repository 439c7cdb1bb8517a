//! The judge's per-test cost against the physical floor: a bare
//! spawn → pipe → wait → compare loop written here, on the same 1000 tiny
//! tests, with the same child program. Prints a table; asserts nothing
//! (timings belong in benchmarks, not in tests).
//!
//! Then interactive round trips: a referee and a player exchanging 20000
//! messages through the judge's relay, against the same pair on directly
//! crossed pipes.
//!
//! Run: `cargo bench -p harness --bench overhead` (add `-- --tests N --rounds
//! R`; `--no-game` skips the game; `--only VARIANT` times one variant alone,
//! round by round, for a profiler or to compare two builds). Each variant's
//! CPU time (user + system, judge and children) is shown beside its wall
//! time: on a machine busy with other work, wall times say more about the
//! other work than about the judge.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use harness::compile::{Built, Executable};
use harness::runner::{RunPlan, Task, execute};
use harness::sandbox::{IsolationLevel, Sandbox, Worker};
use harness::spec::load_problem;

/// The child: echoes stdin to stdout. Static C when gcc is there (the
/// cheapest exec), else Rust.
fn build_echo(dir: &Path) -> PathBuf {
    let exe = dir.join("echo");
    let c = dir.join("echo.c");
    std::fs::write(&c, "#include <unistd.h>\nint main(void){char b[4096];ssize_t n;while((n=read(0,b,sizeof b))>0)write(1,b,n);return 0;}\n").unwrap();
    let gcc = Command::new("gcc")
        .args(["-O2", "-static", "-o"])
        .arg(&exe)
        .arg(&c)
        .status();
    if gcc.is_ok_and(|s| s.success()) {
        return exe;
    }
    let rs = dir.join("echo.rs");
    std::fs::write(&rs, "use std::io::*;fn main(){let mut b=Vec::new();stdin().read_to_end(&mut b).unwrap();stdout().write_all(&b).unwrap();}").unwrap();
    let ok = Command::new("rustc")
        .args(["-O", "-o"])
        .arg(&exe)
        .arg(&rs)
        .status()
        .unwrap();
    assert!(ok.success(), "could not build the echo program");
    exe
}

/// A referee sending 0..N one per line, checking each echo, and a player
/// echoing every line: one round trip per message.
fn build_ping_pong(dir: &Path) -> (PathBuf, PathBuf) {
    let referee = "use std::io::*;fn main(){let a:Vec<String>=std::env::args().collect();let n:u32=std::fs::read_to_string(&a[1]).unwrap().trim().parse().unwrap();let mut o=stdout().lock();let mut i=stdin().lock();let mut l=String::new();for k in 0..n{writeln!(o,\"{k}\").unwrap();o.flush().unwrap();l.clear();i.read_line(&mut l).unwrap();if l.trim()!=k.to_string(){std::process::exit(43)}}writeln!(o,\"-1\").unwrap();o.flush().unwrap();std::process::exit(42)}";
    let player = "use std::io::*;fn main(){let mut o=stdout().lock();let mut i=stdin().lock();let mut l=String::new();loop{l.clear();if i.read_line(&mut l).unwrap()==0||l.trim()==\"-1\"{break}o.write_all(l.as_bytes()).unwrap();o.flush().unwrap();}}";
    let mut built = Vec::new();
    for (name, source) in [("referee", referee), ("player", player)] {
        let file = dir.join(format!("{name}.rs"));
        std::fs::write(&file, source).unwrap();
        let exe = dir.join(name);
        let ok = Command::new("rustc")
            .args(["-O", "-o"])
            .arg(&exe)
            .arg(&file)
            .status()
            .unwrap();
        assert!(ok.success(), "could not build the {name}");
        built.push(exe);
    }
    (built[0].clone(), built[1].clone())
}

/// The floor for a game: the two programs on directly crossed pipes.
fn crossed_pipes(referee: &Path, player: &Path, input: &Path) -> Duration {
    let (to_player, from_referee) = rustix::pipe::pipe().unwrap();
    let (to_referee, from_player) = rustix::pipe::pipe().unwrap();
    let start = Instant::now();
    let mut referee = Command::new(referee)
        .arg(input)
        .stdin(to_referee)
        .stdout(from_referee)
        .spawn()
        .unwrap();
    let mut player = Command::new(player)
        .stdin(to_player)
        .stdout(from_player)
        .spawn()
        .unwrap();
    assert_eq!(referee.wait().unwrap().code(), Some(42));
    player.wait().unwrap();
    start.elapsed()
}

/// The same game through a worker's `run_interactive`.
fn relayed(
    sandbox: &Worker,
    referee: &Path,
    player: &Path,
    input: &Path,
    scratch: &Path,
) -> Duration {
    let limits = harness::sandbox::Limits {
        time: Duration::from_secs(10),
        wall: Duration::from_secs(20),
        memory: 256 << 20,
        output: 64 << 20,
    };
    let request = |program: &Path, args: Vec<std::ffi::OsString>, workdir: PathBuf, containment| {
        harness::sandbox::RunRequest {
            args,
            ..harness::sandbox::RunRequest::new(program.to_path_buf(), workdir, limits, containment)
        }
    };
    let player_dir = tempfile::tempdir_in(scratch).unwrap();
    let referee_dir = tempfile::tempdir_in(scratch).unwrap();
    let start = Instant::now();
    let interaction = sandbox
        .run_interactive(
            &request(
                player,
                Vec::new(),
                player_dir.path().to_path_buf(),
                harness::sandbox::Containment::Submission,
            ),
            &request(
                referee,
                vec![input.into()],
                referee_dir.path().to_path_buf(),
                harness::sandbox::Containment::Tool,
            ),
        )
        .unwrap();
    let elapsed = start.elapsed();
    let referee = interaction.interactor.unwrap();
    assert_eq!(
        referee.termination,
        harness::sandbox::Termination::Exited(42)
    );
    elapsed
}

fn make_problem(root: &Path, tests: usize) -> PathBuf {
    let dir = root.join("problems/echo");
    let secret = dir.join("data/secret");
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        "id = \"echo\"\n[limits]\ntime = \"1s\"\nmemory = \"64MiB\"\n",
    )
    .unwrap();
    for i in 0..tests {
        let text = format!("{} {}\n", i, i * 7 + 3);
        std::fs::write(secret.join(format!("{i:04}.in")), &text).unwrap();
        std::fs::write(secret.join(format!("{i:04}.ans")), &text).unwrap();
    }
    dir
}

/// The floor: what any judge must do per test.
fn bare_loop(exe: &Path, problem: &harness::spec::ProblemSpec) -> Duration {
    let start = Instant::now();
    for test in &problem.tests {
        let mut child = Command::new(exe)
            .stdin(std::fs::File::open(&test.input).unwrap())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = Vec::new();
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        assert!(child.wait().unwrap().success());
        assert_eq!(out, std::fs::read(&test.answer).unwrap());
    }
    start.elapsed()
}

fn judge(
    exe: &Path,
    problem: &harness::spec::ProblemSpec,
    sandbox: &Sandbox,
    scratch: &Path,
    jobs: usize,
) -> Duration {
    let plan = RunPlan {
        tasks: vec![Task {
            problem,
            owner: harness::owner::Owner::File {
                path: exe.to_path_buf(),
            },
            submission: "echo".into(),
            program: Built::Ready(Executable {
                program: exe.to_path_buf(),
                args: Vec::new(),
                read_only: Vec::new(),
                note: None,
            }),
            checker: None,
            output_checker: None,
            tests: problem.tests.iter().collect(),
            every_test: false,
            static_validation: None,
            output_visualization: None,
        }],
        stop_at_first_failure: false,
        jobs,
    };
    let start = Instant::now();
    let reports = execute(&plan, sandbox, scratch, |_| {});
    let elapsed = start.elapsed();
    assert_eq!(
        reports[0].verdict,
        harness::verdict::Verdict::Accepted,
        "{:?}",
        reports[0]
            .tests
            .iter()
            .find(|t| t.verdict != harness::verdict::Verdict::Accepted)
    );
    elapsed
}

/// The 1, 5 and 15 minute load averages, as the kernel gives them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// User plus system CPU time of this process and its reaped children.
fn cpu_times() -> Duration {
    let mut total = Duration::ZERO;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: rusage is plain data, filled in by the kernel.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a live rusage.
        unsafe { libc::getrusage(who, &mut usage) };
        let time = |tv: libc::timeval| {
            Duration::from_secs(tv.tv_sec as u64) + Duration::from_micros(tv.tv_usec as u64)
        };
        total += time(usage.ru_utime) + time(usage.ru_stime);
    }
    total
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let tests = arg("--tests", 1000);
    let rounds = arg("--rounds", 5);
    // `--only bare|limits|full|full2` runs one variant alone, printing each
    // round with the CPU time it took (for a profiler, or to compare
    // builds); `--no-game` skips the interactive part.
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let game = !args.iter().any(|a| a == "--no-game");
    let dir = tempfile::tempdir().unwrap();
    let exe = build_echo(dir.path());
    let problem = load_problem(&make_problem(dir.path(), tests)).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let limits_only = Sandbox::new();
    let full = Sandbox::with_isolation(IsolationLevel::Full, 1);
    let full_two = Sandbox::with_isolation(IsolationLevel::Full, 2);
    println!("{tests} tiny tests, median of {rounds} interleaved rounds");
    println!("full = {}", full.describe());

    let variants: [(&str, &str); 4] = [
        ("bare", "bare spawn-pipe-wait-compare loop"),
        ("limits", "judge, rlimits only, 1 job"),
        ("full", "judge, full isolation, 1 job"),
        ("full2", "judge, full isolation, 2 jobs"),
    ];
    // One round of a variant: its wall time and the CPU time it took
    // (user + system, of the judge and every child it reaped).
    let run = |variant: &str| {
        let before = cpu_times();
        let wall = match variant {
            "bare" => bare_loop(&exe, &problem),
            "limits" => judge(&exe, &problem, &limits_only, scratch.path(), 1),
            "full" => judge(&exe, &problem, &full, scratch.path(), 1),
            "full2" => judge(&exe, &problem, &full_two, scratch.path(), 2),
            other => panic!("no variant {other}: bare, limits, full or full2"),
        };
        (wall, cpu_times() - before)
    };
    let per_test = |d: Duration| d.as_secs_f64() * 1e6 / tests as f64;
    if let Some(variant) = only {
        for _ in 0..rounds {
            let (wall, cpu) = run(&variant);
            println!(
                "{variant}: {:.0} µs/test wall, {:.0} CPU",
                per_test(wall),
                per_test(cpu)
            );
        }
        return;
    }
    println!("load average before: {}", load_average());
    // Interleaved rounds, so machine noise hits every variant alike.
    let mut walls: [Vec<Duration>; 4] = Default::default();
    let mut cpus: [Vec<Duration>; 4] = Default::default();
    for _ in 0..rounds {
        for (i, (variant, _)) in variants.iter().enumerate() {
            let (wall, cpu) = run(variant);
            walls[i].push(wall);
            cpus[i].push(cpu);
        }
    }
    println!("load average after: {}", load_average());
    let floor = per_test(median(walls[0].clone()));
    let cpu_floor = per_test(median(cpus[0].clone()));
    println!(
        "{:<36} {:>10} {:>8} {:>12} {:>10}",
        "variant", "µs/test", "ratio", "CPU µs/test", "CPU ratio"
    );
    for (i, (_, name)) in variants.iter().enumerate() {
        let wall = per_test(median(walls[i].clone()));
        let cpu = per_test(median(cpus[i].clone()));
        println!(
            "{:<36} {:>10.0} {:>7.2}× {:>12.0} {:>9.2}×",
            name,
            wall,
            wall / floor,
            cpu,
            cpu / cpu_floor
        );
    }

    if !game {
        return;
    }
    let moves = 20_000u32;
    let (referee, player) = build_ping_pong(dir.path());
    let input = dir.path().join("moves.in");
    std::fs::write(&input, format!("{moves}\n")).unwrap();
    let mut games: [Vec<Duration>; 2] = Default::default();
    let worker = full.worker();
    for _ in 0..rounds {
        games[0].push(crossed_pipes(&referee, &player, &input));
        games[1].push(relayed(&worker, &referee, &player, &input, scratch.path()));
    }
    println!();
    println!("a game of {moves} round trips, median of {rounds} interleaved rounds");
    println!(
        "{:<46} {:>10} {:>12} {:>8}",
        "variant", "total ms", "trips/s", "ratio"
    );
    let floor = median(games[0].clone());
    for (name, runs) in [
        "two programs on crossed pipes",
        "judge relay, full isolation",
    ]
    .iter()
    .zip(games)
    {
        let m = median(runs);
        println!(
            "{:<46} {:>10.1} {:>12.0} {:>7.2}×",
            name,
            m.as_secs_f64() * 1e3,
            f64::from(moves) / m.as_secs_f64(),
            m.as_secs_f64() / floor.as_secs_f64()
        );
    }
}
