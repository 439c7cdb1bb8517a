//! What a person playing Asuna sees on stderr (`judge play`): the map after
//! each move and, at the end, the result and an optimal line.

use crate::game::{Mistake, Move, Position, Rules};
use caos3_tools::Board;

/// The map: `M` a living monster, `*` a volcano, `~` lava, else the map's
/// own `^` and `#`.
pub fn map(board: &Board, rules: &Rules, position: &Position, volcanoes: &[Move]) -> String {
    let cols = rules.cols();
    let mut out = "    ".to_string();
    for col in 1..=cols {
        out += &format!("{col:>3}");
    }
    out.push('\n');
    for (x, row) in board.iter().enumerate() {
        out += &format!("{:>3} ", x + 1);
        for (y, &cell) in row.iter().enumerate() {
            let glyph = if volcanoes.contains(&(x, y)) {
                '*'
            } else if position.is_lava((x, y)) {
                '~'
            } else if rules.monster[x][y] {
                'M'
            } else {
                char::from(cell)
            };
            out += &format!("{glyph:>3}");
        }
        out.push('\n');
    }
    out += &format!("monsters left: {}\n", position.moves(rules).len());
    out
}

/// Names a move as on the wire, 1-based.
pub fn name(m: Move) -> String {
    format!("{} {}", m.0 + 1, m.1 + 1)
}

/// The end of the game: who won, the first mistake, and a line of perfect
/// play from the start.
pub fn summary(rules: &Rules, you_won: bool, mistake: Option<&Mistake>) -> String {
    let mut out = if you_won {
        "game over: you made the last move and won\n".to_string()
    } else {
        "game over: the referee made the last move; you lost\n".to_string()
    };
    if let Some(m) = mistake {
        out += &format!("{}\n", m.describe());
    }
    let line: Vec<String> = crate::game::optimal_line(rules)
        .into_iter()
        .map(|m| format!("({})", name(m)))
        .collect();
    out += &format!("an optimal line (you first): {}\n", line.join(" "));
    out
}
