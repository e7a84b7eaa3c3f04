//! Views: the JSON shapes the API answers and the socket sends (docs/api.md), built from
//! games and store rows; they import neither services nor transport.

pub(crate) mod accounts;
pub(crate) mod analysis;
pub(crate) mod catalog;
pub mod challenges;
pub(crate) mod engine;
pub(crate) mod games;
pub(crate) mod live;
pub mod messages;
pub(crate) mod puzzles;
pub mod requests;
pub(crate) mod school;
pub mod tournaments;
