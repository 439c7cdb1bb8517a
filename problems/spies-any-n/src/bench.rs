//! Runs a solver on many board sizes, checks every output and prints a Markdown table of
//! CPU times (user + system, from the rusage of the finished children: they run one at
//! a time, so the difference before and after each run is that run's) and wall times.
//!
//! `spies-any-n-bench [--brute] SOLVER SPEC...` where SPEC is `N`, `A-B` or `A-B:STEP`.
//! Each board is checked with the package checker's logic and, with `--brute`, also by an
//! independent O(n^3) cross-product test. Exits 1 if any output is wrong.

use std::io::Write;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use spies_any_n_tools::{Answer, feasible, find_defect, input, parse_answer};

/// Independent check: permutation, diagonals, and every triple's cross product.
fn brute_valid(cols: &[u64]) -> bool {
    let n = cols.len();
    let p: Vec<(i64, i64)> = cols
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as i64, c as i64))
        .collect();
    let mut seen = vec![false; n + 1];
    if p.iter()
        .any(|&(_, c)| c < 1 || c > n as i64 || std::mem::replace(&mut seen[c as usize], true))
    {
        return false;
    }
    for i in 0..n {
        for j in i + 1..n {
            let (dr, dc) = (p[j].0 - p[i].0, p[j].1 - p[i].1);
            if dr == dc.abs() {
                return false;
            }
            for q in &p[j + 1..] {
                if dr * (q.1 - p[i].1) == (q.0 - p[i].0) * dc {
                    return false;
                }
            }
        }
    }
    true
}

/// CPU time of all waited-for children so far.
fn children_cpu() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage only writes a `rusage` through the pointer, which is valid for
    // writes of that type; zeroed memory is a valid `rusage` whatever it does.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn sizes(spec: &str) -> Result<Vec<u64>, String> {
    let bad = || format!("bad size spec {spec:?}");
    let (range, step) = spec.split_once(':').unwrap_or((spec, "1"));
    let step: usize = step.parse().map_err(|_| bad())?;
    let (lo, hi) = range.split_once('-').unwrap_or((range, range));
    let (lo, hi): (u64, u64) = (
        lo.parse().map_err(|_| bad())?,
        hi.parse().map_err(|_| bad())?,
    );
    Ok((lo..=hi).step_by(step.max(1)).collect())
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let brute = args.first().is_some_and(|a| a == "--brute");
    if brute {
        args.remove(0);
    }
    let Some((solver, specs)) = args.split_first() else {
        eprintln!("usage: spies-any-n-bench [--brute] SOLVER SPEC...");
        return ExitCode::FAILURE;
    };
    let mut all = Vec::new();
    for spec in specs {
        match sizes(spec) {
            Ok(ns) => all.extend(ns),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "| n | CPU (ms) | wall (ms) | board |\n|---:|---:|---:|---|"
    );
    let mut failures = 0;
    for n in all {
        let (cpu_before, start) = (children_cpu(), Instant::now());
        let child = Command::new(solver)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                child
                    .stdin
                    .take()
                    .expect("piped")
                    .write_all(input(n).as_bytes())?;
                child.wait_with_output()
            });
        let wall = start.elapsed().as_secs_f64() * 1000.0;
        let cpu = (children_cpu() - cpu_before).as_secs_f64() * 1000.0;
        let verdict = match child {
            Err(e) => Err(format!("cannot run {solver}: {e}")),
            Ok(o) if !o.status.success() => Err(format!("solver failed: {}", o.status)),
            Ok(o) => match parse_answer(&String::from_utf8_lossy(&o.stdout), true, 999) {
                Err(e) => Err(e),
                Ok(Answer::Impossible) if feasible(n) => Err("-1 for a feasible n".into()),
                Ok(Answer::Impossible) => Ok("-1 (none exists)".to_string()),
                Ok(Answer::Board(cols)) if cols.len() as u64 != n => Err("wrong size".into()),
                Ok(Answer::Board(cols)) => match find_defect(&cols) {
                    Some(d) => Err(d.to_string()),
                    None if brute && !brute_valid(&cols) => Err("brute force disagrees".into()),
                    None if brute => Ok("valid (checker + O(n³) brute force)".to_string()),
                    None => Ok("valid (checker)".to_string()),
                },
            },
        };
        let text = verdict.unwrap_or_else(|e| {
            failures += 1;
            format!("**WRONG**: {e}")
        });
        let _ = writeln!(out, "| {n} | {cpu:.0} | {wall:.0} | {text} |");
        let _ = out.flush();
    }
    if failures > 0 {
        eprintln!("{failures} wrong outputs");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
