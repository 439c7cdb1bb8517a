//! Wrong in the faithful problem: a valid board, but of even size (the lexicographically
//! first 12-board). HackerRank asks for odd N only.

fn main() {
    println!("12\n1 3 6 12 10 2 11 5 8 4 9 7");
}
