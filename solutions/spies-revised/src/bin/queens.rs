//! Wrong: the classical explicit n-queens construction (Hoffman, Loessi and Moore) for
//! N = 999. No two queens attack each other, but the "knight pattern" puts many spies on
//! common lines (rows 1, 2, 3 already: columns 4, 6, 8).

fn main() {
    let n = 999;
    // Evens then odds; n mod 6 = 3 moves 2 to the end of the evens and 1, 3 to the end
    // of the odds (the rule for n mod 6 = 2 is not needed here).
    let mut evens: Vec<u32> = (2..=n).step_by(2).collect();
    let mut odds: Vec<u32> = (1..=n).step_by(2).collect();
    if n % 6 == 3 {
        evens.rotate_left(1);
        odds.rotate_left(2);
    }
    let cols: Vec<String> = evens.iter().chain(&odds).map(|c| c.to_string()).collect();
    println!("{n}\n{}", cols.join(" "));
}
