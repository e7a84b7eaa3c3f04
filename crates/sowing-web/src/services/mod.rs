//! Services: what the server does with games, whoever asks (a route, a socket, a timer) —
//! one-screen games and matches ([`games`]), games between two seats ([`live`]), the hub
//! that wakes sockets ([`hub`]), analyses after the game ([`analysis`]), the engines, the
//! endgame tables' values and their first build. They read and write the store and answer with views; they never import transport.

pub(crate) mod accounts;
pub(crate) mod analysis;
pub(crate) mod challenges;
pub(crate) mod director;
pub(crate) mod engines;
pub(crate) mod explorer;
pub mod first_tables;
pub(crate) mod games;
pub(crate) mod hub;
pub(crate) mod live;
pub(crate) mod notices;
pub(crate) mod outages;
pub(crate) mod pairing;
pub(crate) mod pocket_tables;
pub(crate) mod practice;
pub(crate) mod proofs;
pub(crate) mod puzzles;
pub(crate) mod school;
pub(crate) mod seekers;
pub(crate) mod solves;
pub(crate) mod table_values;
pub(crate) mod tournaments;
