//! The common-code rule: code most of a class writes (what the problem
//! makes everybody write, or one source many students started from)
//! counts for less, and never for nothing.
//!
//! Starter code given with `--base` is removed before anything else. Beyond
//! it, a fingerprint held by more files of a problem than [`limit`] allows
//! (more than half of them, and more than 10) counts [`DISCOUNT`] of a
//! fingerprint of a student's own, in both the part two files share and
//! the whole each file is measured against. Because the weight is never
//! zero, two identical files share all of their weight and score 100%,
//! whatever the rest of the class handed in: a discount can lower what
//! independent files share, never hide a copy. (The rule it replaces
//! dropped such fingerprints, and a class where most students handed in
//! related code lost the pairs of its identical files: issue 35.)

use std::collections::HashMap;

/// What a fingerprint held by too many files counts, against 1 for one of
/// a student's own.
pub const DISCOUNT: f64 = 0.1;

/// How many files of a group may hold a fingerprint before it counts as
/// code most of the class writes.
pub fn limit(files: usize) -> usize {
    (files / 2).max(10)
}

/// How many files of a group hold each fingerprint, and so what each
/// counts.
#[derive(Debug, Clone, Default)]
pub struct Commonness {
    files: usize,
    held: HashMap<u64, usize>,
}

impl Commonness {
    /// Counts the files of a group that hold each hash.
    pub fn of<'a>(files: impl IntoIterator<Item = &'a Bag>) -> Commonness {
        let mut common = Commonness::default();
        for bag in files {
            common.files += 1;
            for &(hash, _) in bag {
                *common.held.entry(hash).or_default() += 1;
            }
        }
        common
    }

    pub fn is_common(&self, hash: u64) -> bool {
        self.held.get(&hash).copied().unwrap_or(0) > limit(self.files)
    }

    /// What `hash` counts: 1, or [`DISCOUNT`] when most files hold it.
    pub fn weight(&self, hash: u64) -> f64 {
        if self.is_common(hash) { DISCOUNT } else { 1.0 }
    }

    /// (the distinct hashes discounted, all distinct hashes of the group).
    pub fn discounted(&self) -> (usize, usize) {
        let limit = limit(self.files);
        let common = self.held.values().filter(|&&n| n > limit).count();
        (common, self.held.len())
    }

    pub fn files(&self) -> usize {
        self.files
    }
}

/// A file's hashes as a multiset: each distinct hash and how often.
pub type Bag = Vec<(u64, u32)>;

/// `hashes` counted, sorted by hash.
pub fn bag(hashes: impl IntoIterator<Item = u64>) -> Bag {
    weighed(hashes.into_iter().map(|h| (h, 1)))
}

/// Each hash with the sum of the weights it comes with, sorted by hash.
pub fn weighed(items: impl IntoIterator<Item = (u64, u32)>) -> Bag {
    let mut all: Vec<(u64, u32)> = items.into_iter().collect();
    all.sort_unstable();
    let mut bag: Bag = Vec::new();
    for (hash, weight) in all {
        match bag.last_mut() {
            Some((last, n)) if *last == hash => *n = n.saturating_add(weight),
            _ => bag.push((hash, weight)),
        }
    }
    bag
}

/// What a bag weighs: each hash's weight times how often it is there.
pub fn weight(bag: &Bag, common: &Commonness) -> f64 {
    bag.iter()
        .map(|&(hash, n)| common.weight(hash) * f64::from(n))
        .sum()
}

/// What two files of a group share, for every two of them at once: for
/// each hash, each two holders share the smaller of their counts times
/// the hash's weight. Returns the weights shared, `n × n` (only `a < b`
/// filled), `n` the number of bags.
pub fn shared(bags: &[&Bag], common: &Commonness) -> Vec<f64> {
    let n = bags.len();
    let mut holders: HashMap<u64, Vec<(usize, u32)>> = HashMap::new();
    for (i, bag) in bags.iter().enumerate() {
        for &(hash, count) in bag.iter() {
            holders.entry(hash).or_default().push((i, count));
        }
    }
    // In the order of the hashes, as `weight` adds them up: two identical
    // bags then share exactly what each weighs, a share of exactly 1.
    let mut holders: Vec<(u64, Vec<(usize, u32)>)> = holders.into_iter().collect();
    holders.sort_unstable_by_key(|(hash, _)| *hash);
    let mut shared = vec![0.0; n * n];
    for (hash, holding) in &holders {
        if holding.len() < 2 {
            continue;
        }
        let weight = common.weight(*hash);
        for (x, &(a, count_a)) in holding.iter().enumerate() {
            for &(b, count_b) in &holding[x + 1..] {
                shared[a * n + b] += weight * f64::from(count_a.min(count_b));
            }
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_most_files_hold_is_discounted_never_dropped() {
        let files: Vec<Bag> = (0..30)
            .map(|i| bag(if i < 20 { [1, 100 + i] } else { [2, 100 + i] }))
            .collect();
        let common = Commonness::of(&files);
        assert_eq!(limit(30), 15);
        assert_eq!(common.weight(1), DISCOUNT);
        assert_eq!(common.weight(2), 1.0);
        assert_eq!(common.weight(100), 1.0);
        assert_eq!(common.discounted(), (1, 32));
        // Two files of nothing but the common hash share all they weigh.
        let one = bag([1]);
        let shared = shared(&[&one, &one], &common);
        assert_eq!(shared[1], weight(&one, &common));
    }

    #[test]
    fn a_small_class_discounts_nothing() {
        let files: Vec<Bag> = (0..8).map(|_| bag([7])).collect();
        let common = Commonness::of(&files);
        assert_eq!(common.weight(7), 1.0);
    }

    #[test]
    fn bags_count_and_share_the_smaller_count() {
        let a = bag([5, 3, 5, 5]);
        assert_eq!(a, vec![(3, 1), (5, 3)]);
        let b = bag([5, 5, 9]);
        let common = Commonness::default();
        let shared = shared(&[&a, &b], &common);
        assert_eq!(shared[1], 2.0);
        assert_eq!(weight(&a, &common), 4.0);
    }
}
