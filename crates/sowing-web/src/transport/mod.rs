//! Transport: the HTTP routes and the socket, what they read from requests, and how they
//! answer errors. They ask the services and answer with views; nothing below imports them.

pub(crate) mod accounts;
pub(crate) mod challenges;
pub(crate) mod error;
pub(crate) mod extract;
pub(crate) mod games;
pub(crate) mod live;
pub(crate) mod new_game;
pub(crate) mod ops;
pub(crate) mod pocket;
pub(crate) mod puzzles;
pub(crate) mod school;
pub(crate) mod security;
pub(crate) mod seeks;
pub(crate) mod tournaments;
