//! The messages of a live game's socket (docs/api.md, "The socket"): their kinds and fields,
//! written once for the server that sends them and the clients that read them (`sow-load`,
//! the tests). The payloads are type parameters: the server sends its views, and a client
//! reads into whatever part of them it needs (or `serde_json::Value`).

use serde::{Deserialize, Serialize};

/// What the server sends on a socket.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMessage<Live, Game, Move> {
    /// The whole game: first, and whenever the socket cannot just be sent moves (a
    /// takeback). `seat`: `south` or `north` for a seat's socket, none for a spectator's.
    State {
        /// The seat whose token said hello, if any.
        seat: Option<String>,
        /// The live status: seats, clock, offers, result.
        live: Live,
        /// The game's view.
        game: Game,
    },
    /// A move the socket had not seen, in order, with its trace.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: Move,
    },
    /// The live status after the moves just sent.
    Status {
        /// The live status.
        live: Live,
    },
    /// A match's next round has started: its game.
    NextRound {
        /// The next round's game id.
        game: i64,
    },
    /// The answer to a ping.
    Pong,
    /// Something the server refused or could not do; the socket may close after it.
    Error {
        /// What went wrong.
        error: String,
    },
}

/// What the server sends on the socket of a seek (docs/api.md, "Quick pairing").
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum SeekMessage {
    /// The seek is open: the socket holds it until it is paired.
    Waiting {
        /// The seek.
        seek: i64,
    },
    /// Paired: the game and the seat the seek's token holds there.
    Paired {
        /// The game.
        game: i64,
        /// `south` or `north`.
        seat: String,
    },
    /// The answer to a ping.
    Pong,
    /// Something the server refused; the socket closes after it.
    Error {
        /// What went wrong.
        error: String,
    },
}

/// What the server sends on a signed-in page's notices socket (docs/api.md, "Challenges").
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum NoticeMessage {
    /// The account's challenges now.
    Challenges {
        /// The list, and the server's time.
        #[serde(flatten)]
        list: crate::views::challenges::ChallengeList,
    },
    /// The answer to a ping.
    Pong,
    /// Something the server refused (after a lost session, the socket closes).
    Error {
        /// What went wrong.
        error: String,
    },
}

/// What the server sends on a tournament's socket (docs/api.md, "Tournaments").
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum TournamentMessage {
    /// The tournament now, for the socket's reader.
    Tournament {
        /// The tournament whole.
        #[serde(flatten)]
        view: Box<crate::views::tournaments::TournamentView>,
    },
    /// The answer to a ping.
    Pong,
    /// Something the server refused.
    Error {
        /// What went wrong.
        error: String,
    },
}

/// What a client sends on a socket.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: a seat's token, or none to watch.
    Hello {
        /// The seat's token, if any.
        token: Option<String>,
    },
    /// Answered with [`ServerMessage::Pong`]. (Braces: a unit variant would accept any
    /// other fields.)
    Ping {},
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn each_message_is_tagged_by_its_type_as_docs_api_says() {
        let sent: ServerMessage<Value, Value, Value> = ServerMessage::Move {
            mv: json!({"ply": 1}),
        };
        assert_eq!(
            serde_json::to_value(&sent).unwrap(),
            json!({"type": "move", "move": {"ply": 1}})
        );
        let pong: ServerMessage<Value, Value, Value> = ServerMessage::Pong;
        assert_eq!(
            serde_json::to_value(&pong).unwrap(),
            json!({"type": "pong"})
        );
        let next = json!({"type": "next-round", "game": 7});
        assert_eq!(
            serde_json::from_value::<ServerMessage<Value, Value, Value>>(next).unwrap(),
            ServerMessage::NextRound { game: 7 }
        );
        assert_eq!(
            serde_json::from_str::<ClientMessage>(r#"{"type": "ping"}"#).unwrap(),
            ClientMessage::Ping {}
        );
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type": "ping", "pad": 1}"#).is_err());
    }
}
