//! The one worker pool of the judge: `jobs` scoped threads take job
//! indices in order, each with state of its own made once (a run folder; a
//! worker thread also keeps its cgroup slot and network namespace), and hand
//! every result to the calling thread as soon as it is ready.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on jobs `0..count` on at most `jobs` threads; `on_result`
/// sees each result on the calling thread, in the order they finish.
pub(crate) fn run<S, R: Send>(
    jobs: usize,
    count: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
    mut on_result: impl FnMut(usize, R),
) {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, count.max(1)) {
            let sender = sender.clone();
            let (next, init, work) = (&next, &init, &work);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= count {
                        break;
                    }
                    if sender.send((index, work(&mut state, index))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, result) in receiver {
            on_result(index, result);
        }
    });
}

/// As `run`, on the calling thread with its `state`: jobs one after another.
pub(crate) fn run_here<S, R>(
    count: usize,
    mut state: S,
    work: impl Fn(&mut S, usize) -> R,
    mut on_result: impl FnMut(usize, R),
) {
    for index in 0..count {
        on_result(index, work(&mut state, index));
    }
}

/// `f` over `items` on the pool, results in the order of `items`.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let mut results: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    run(
        jobs,
        items.len(),
        || (),
        |_, index| f(&items[index]),
        |index, result| results[index] = Some(result),
    );
    results
        .into_iter()
        .map(|result| result.expect("every item was mapped"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_the_order_whatever_finishes_first() {
        let items: Vec<u64> = (0..50).collect();
        let doubled = map(&items, 4, |&n| {
            std::thread::sleep(std::time::Duration::from_micros((50 - n) * 20));
            n * 2
        });
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn each_worker_builds_its_state_once() {
        let inits = AtomicUsize::new(0);
        let mut seen = 0;
        run(
            3,
            30,
            || inits.fetch_add(1, Ordering::SeqCst),
            |_, index| index,
            |_, _| seen += 1,
        );
        assert_eq!(seen, 30);
        assert!(inits.load(Ordering::SeqCst) <= 3);
    }
}
