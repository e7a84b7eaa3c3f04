//! A client's replica of a live game: each of its socket's messages checked against it and
//! played there, so that a client trusts nothing the server says without replaying it.

use sowing::{Game, Rules, Side};

use crate::socket::{MoveMessage, ServerMessage, Snapshot};

/// Checks a `move` message against the replica and plays it there.
pub fn apply(replica: &mut Game, m: &MoveMessage, who: &str) -> Result<(), String> {
    let expected = replica.moves().len() + 1;
    if m.ply != expected {
        return Err(if m.ply < expected {
            format!("{who}: ply {} came again (expected {expected})", m.ply)
        } else {
            format!("{who}: ply {expected} is missing (got {} instead)", m.ply)
        });
    }
    let to_move = replica.position().to_move().name();
    if m.side != to_move {
        return Err(format!(
            "{who}: ply {}: the move is {}'s, the replica has {to_move} to move",
            m.ply, m.side
        ));
    }
    let mv = replica
        .parse_move(&m.mv)
        .map_err(|e| format!("{who}: ply {}: {}: {e}", m.ply, m.mv))?;
    replica
        .play(mv)
        .map_err(|e| format!("{who}: ply {}: {} refused by the replica: {e}", m.ply, m.mv))?;
    let mine = Snapshot::of(replica.position());
    if mine != m.after {
        return Err(format!(
            "{who}: ply {}: after {} the replica has {mine:?}, the server {:?}",
            m.ply, m.mv, m.after
        ));
    }
    Ok(())
}

/// Checks the socket's first message (`state`): the seat and the start position.
pub fn check_state(
    first: &ServerMessage,
    seat: Option<Side>,
    rules: Rules,
    who: &str,
) -> Result<(), String> {
    let ServerMessage::State {
        seat: got,
        live,
        game,
    } = first
    else {
        return Err(format!("{who}: the first message is not the state"));
    };
    if got.as_deref() != seat.map(Side::name) || live.ply != 0 {
        return Err(format!(
            "{who}: state for seat {got:?} at ply {}, expected {:?} at 0",
            live.ply,
            seat.map(Side::name)
        ));
    }
    let start = Snapshot::of(Game::new(rules).position());
    let theirs = Snapshot {
        pits: game.state.pits.clone(),
        captured: game.state.captured,
        to_move: game.state.to_move.clone(),
    };
    if start != theirs {
        return Err(format!(
            "{who}: the start is {theirs:?}, expected {start:?}"
        ));
    }
    Ok(())
}

/// A socket message other than a move, for a client following the game with `replica`:
/// a result before the replica's end, a state (history rewritten) or an error is an error.
pub fn check_other(message: ServerMessage, replica: &Game, who: &str) -> Result<(), String> {
    match message {
        ServerMessage::Status { live } => match live.result.filter(|_| !replica.is_over()) {
            Some(result) => Err(format!(
                "{who}: the game ended on the server at ply {}: {result}",
                live.ply
            )),
            None => Ok(()),
        },
        ServerMessage::State { live, .. } => Err(format!(
            "{who}: an unexpected state at ply {} (a takeback?)",
            live.ply
        )),
        ServerMessage::Error { error } => Err(format!("{who}: error message: {error}")),
        // sow-load plays single games: a match's next round is not its business.
        ServerMessage::NextRound { game } => Err(format!("{who}: an unexpected next round {game}")),
        ServerMessage::Move { .. } | ServerMessage::Pong => Ok(()),
    }
}

/// The game a `state` message describes, replayed from its history.
pub fn replica_of(state: &ServerMessage, rules: Rules, who: &str) -> Result<Game, String> {
    let ServerMessage::State { game, .. } = state else {
        return Err(format!("{who}: not a state: {state:?}"));
    };
    let mut replica = Game::new(rules);
    for (i, past) in game.history.iter().enumerate() {
        let mv = replica
            .parse_move(&past.mv)
            .map_err(|e| format!("{who}: history ply {}: {}: {e}", i + 1, past.mv))?;
        replica
            .play(mv)
            .map_err(|e| format!("{who}: history ply {}: {}: {e}", i + 1, past.mv))?;
    }
    let theirs = Snapshot {
        pits: game.state.pits.clone(),
        captured: game.state.captured,
        to_move: game.state.to_move.clone(),
    };
    if Snapshot::of(replica.position()) != theirs {
        return Err(format!(
            "{who}: the history does not reach the state's position"
        ));
    }
    Ok(replica)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::Variant;

    fn message(ply: usize, mv: &str, side: &str, after: &Game) -> MoveMessage {
        MoveMessage {
            ply,
            mv: mv.to_owned(),
            side: side.to_owned(),
            after: Snapshot::of(after.position()),
        }
    }

    /// The server's game after `moves` from the start of Hoyito II.
    fn server_after(moves: &[&str]) -> Game {
        let mut game = Game::new(Rules::new(Variant::HoyitoII));
        for m in moves {
            game.play(game.parse_move(m).unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn a_move_in_order_that_reaches_the_servers_position_is_played() {
        let mut replica = server_after(&[]);
        apply(
            &mut replica,
            &message(1, "C", "south", &server_after(&["C"])),
            "t",
        )
        .unwrap();
        assert_eq!(replica.moves().len(), 1);
    }

    #[test]
    fn a_doubled_or_missing_ply_is_an_error() {
        let mut replica = server_after(&["C"]);
        let doubled = apply(
            &mut replica,
            &message(1, "C", "south", &server_after(&["C"])),
            "t",
        );
        assert!(doubled.unwrap_err().contains("ply 1 came again"));
        let after = server_after(&["C"]);
        let next = after.legal_names()[0].clone();
        let skipped = apply(&mut replica, &message(3, &next, "north", &after), "t");
        assert!(skipped.unwrap_err().contains("ply 2 is missing"));
        assert_eq!(replica.moves().len(), 1, "nothing played");
    }

    #[test]
    fn another_position_after_the_move_or_the_wrong_side_is_an_error() {
        let mut replica = server_after(&[]);
        let elsewhere = apply(
            &mut replica,
            &message(1, "C", "south", &server_after(&["D"])),
            "t",
        );
        assert!(elsewhere.unwrap_err().contains("the replica has"));
        let mut replica = server_after(&[]);
        let side = apply(
            &mut replica,
            &message(1, "C", "north", &server_after(&["C"])),
            "t",
        );
        assert!(side.unwrap_err().contains("north's"));
    }
}
