//! How often each move was played after a line of moves in the finished games kept here,
//! and how those games ended: the opening explorer's figures (docs/web.md, "The school").

use super::error::StoreResult;
use super::sql::{values, Value};
use super::Store;

/// The longest line the figures are looked up for: each ply is one condition of the query,
/// and past it no two games follow the same line anyway.
pub const MAX_PLAYED_LINE: usize = 120;

/// The finished games that followed a line and then played one move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move, by name (`A`…, `a`…, `pass`).
    pub mv: String,
    /// Games won by South, …
    pub south: u64,
    /// … by North, …
    pub north: u64,
    /// … and drawn.
    pub draws: u64,
}

impl PlayedMove {
    /// The games in all.
    pub fn games(&self) -> u64 {
        self.south + self.north + self.draws
    }
}

impl Store {
    /// Each move played after `line` (move names, from ply 0) in the finished games that
    /// started from `start` (a position text), with their results, the most played first
    /// (then by name). Nothing for a line longer than [`MAX_PLAYED_LINE`].
    ///
    /// # Errors
    /// On a database failure.
    pub fn played_after(&self, start: &str, line: &[String]) -> StoreResult<Vec<PlayedMove>> {
        if line.len() > MAX_PLAYED_LINE {
            return Ok(Vec::new());
        }
        // The games whose first plies are the line's: as many of their moves match as the
        // line is long (the moves' key is (game, ply), so each game is an index range).
        let mut sql = String::from(
            "SELECT next.mv, g.result, COUNT(*) FROM games g
             JOIN moves next ON next.game_id = g.id AND next.ply = ?2
             WHERE g.start = ?1 AND g.result IS NOT NULL",
        );
        let mut params: Vec<Value> = values![start, line.len()].into();
        if !line.is_empty() {
            sql.push_str(" AND (SELECT COUNT(*) FROM moves p WHERE p.game_id = g.id AND (");
            for (ply, mv) in line.iter().enumerate() {
                if ply > 0 {
                    sql.push_str(" OR ");
                }
                let at = params.len();
                sql.push_str(&format!("(p.ply = ?{} AND p.mv = ?{})", at + 1, at + 2));
                params.push(Value::from(ply));
                params.push(Value::from(mv.as_str()));
            }
            sql.push_str(&format!(")) = ?{}", params.len() + 1));
            params.push(Value::from(line.len()));
        }
        sql.push_str(" GROUP BY next.mv, g.result");
        let mut moves: Vec<PlayedMove> = Vec::new();
        for row in self.backend.read_statement(&sql, &params)? {
            let mv = row.text(0)?;
            let result = row.text(1)?;
            let count = row.size(2)? as u64;
            let at = match moves.iter().position(|m| m.mv == mv) {
                Some(at) => at,
                None => {
                    moves.push(PlayedMove {
                        mv,
                        ..PlayedMove::default()
                    });
                    moves.len() - 1
                }
            };
            let played = &mut moves[at];
            match result.as_str() {
                "south" => played.south += count,
                "north" => played.north += count,
                _ => played.draws += count,
            }
        }
        moves.sort_by(|a, b| b.games().cmp(&a.games()).then_with(|| a.mv.cmp(&b.mv)));
        Ok(moves)
    }
}
