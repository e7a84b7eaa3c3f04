//! Owners of one-screen games: each browser makes a secret player key (128 random bits, in
//! hex) and presents it in the `X-Player-Key` header; a game records the SHA-256 of its
//! creator's key, and only that key may change or delete it. Anyone may watch a game or
//! download its record. A request that creates a game without a key is given a fresh one in
//! the answer (`player_key`), so that programs need nothing more than `curl`.
//!
//! Keys are handled like seat tokens ([`crate::seats`]): never in an address, never logged,
//! only their hash stored.

use crate::seats;

/// The header that carries the player key.
pub const PLAYER_KEY_HEADER: &str = "x-player-key";

/// The player key a request presents, if any (checked for its form: 32 hex digits).
pub struct PlayerKey(pub Option<String>);

/// Who creates a game: the stored hash of the owner's key, and the key itself when the
/// server made it (to hand back once in the answer).
pub struct NewOwner {
    /// SHA-256 of the key.
    pub hash: [u8; 32],
    /// The key the server made, when the request brought none.
    pub made: Option<String>,
}

impl PlayerKey {
    /// The owner of a game this request creates.
    pub fn owner(&self) -> NewOwner {
        match &self.0 {
            Some(key) => NewOwner {
                hash: seats::hash(key),
                made: None,
            },
            None => {
                let (key, hash) = seats::new_token();
                NewOwner {
                    hash,
                    made: Some(key),
                }
            }
        }
    }

    /// The stored hash of the key presented, to list its games.
    pub fn hash(&self) -> Option<[u8; 32]> {
        self.0.as_deref().map(seats::hash)
    }
}

/// Whether `key` may change a game whose owner's hash is `owner`: games made before owners
/// existed (`None`) stay open to all.
pub fn may_change(owner: Option<&[u8; 32]>, key: Option<&str>) -> bool {
    match (owner, key) {
        (None, _) => true,
        (Some(stored), Some(key)) => seats::holds(stored, key),
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_owners_key_may_change_an_owned_game() {
        let mine = PlayerKey(Some("00112233445566778899aabbccddeeff".to_owned()));
        let owner = mine.owner();
        assert!(owner.made.is_none(), "a key brought is kept");
        assert!(may_change(Some(&owner.hash), mine.0.as_deref()));
        assert!(!may_change(
            Some(&owner.hash),
            Some("ffeeddccbbaa99887766554433221100")
        ));
        assert!(!may_change(Some(&owner.hash), None));
        assert!(may_change(None, None), "a game from before owners is open");
    }

    #[test]
    fn a_request_without_a_key_is_given_one() {
        let owner = PlayerKey(None).owner();
        let made = owner.made.expect("a key is made");
        assert_eq!(made.len(), 32);
        assert!(may_change(Some(&owner.hash), Some(&made)));
    }
}
