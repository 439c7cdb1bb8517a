//! What a person playing Bob sees on stderr (`judge play`): the board after
//! each move and, at the end, the result and an optimal line.

use crate::game::{Game, Mistake, min_matching};

/// The board: struck cells as `.`, the crossings played in brackets, the row
/// Alice has just struck out (if any) marked with `>`.
pub fn board(game: &Game, asking: Option<usize>) -> String {
    let board = game.board();
    let n = board.len();
    let width = board
        .iter()
        .flatten()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        + 3;
    let mut out = format!("{:5}", "");
    for col in 0..n {
        out += &format!("{:>width$}", col + 1);
    }
    out.push('\n');
    for (row, cells) in board.iter().enumerate() {
        let mark = if asking == Some(row) { '>' } else { ' ' };
        out += &format!("{mark}{:>3} ", row + 1);
        for (col, &cell) in cells.iter().enumerate() {
            let text = if game.moves.contains(&(row, col)) {
                format!("[{cell}]")
            } else if game.row_open(row) && game.col_open(col) {
                cell.to_string()
            } else {
                ".".to_string()
            };
            out += &format!("{text:>width$}");
        }
        out.push('\n');
    }
    out += &format!("total so far: {}\n", game.total);
    if let Some(row) = asking {
        out += &format!("Alice strikes out row {}; your column?\n", row + 1);
    }
    out
}

/// The end of the game: the result, the first mistake, and an optimal
/// answer to each row in the order Alice struck them out.
pub fn summary(game: &Game, value: i64, mistake: Option<&Mistake>) -> String {
    let board = game.board();
    let mut out = format!(
        "game over: your total {}, the value of the game {value}\n",
        game.total
    );
    match mistake {
        None => out += "you held Alice to the value: every answer was optimal\n",
        Some(m) => out += &format!("{}\n", m.describe(board)),
    }
    let all: Vec<usize> = (0..board.len()).collect();
    let best = min_matching(board, &all, &all);
    let line: Vec<String> = game
        .moves
        .iter()
        .map(|&(row, _)| format!("row {} -> column {}", row + 1, best.partner[row] + 1))
        .collect();
    out += &format!(
        "an optimal line: {} (total {})\n",
        line.join(", "),
        best.cost
    );
    out
}
