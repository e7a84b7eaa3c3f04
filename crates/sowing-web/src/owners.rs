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

/// Who asks to change a game: the player key presented, and the owner hash of the account
/// signed in (its session cookie), if any. An account's games carry its owner hash: those it
/// created, and those that moved into it from a player key ([`crate::store::Store::sign_up`]).
#[derive(Clone, Debug, Default)]
pub struct Caller {
    /// The player key presented.
    pub key: Option<String>,
    /// The owner hash of the signed-in account.
    pub account: Option<[u8; 32]>,
}

impl Caller {
    /// Whether this caller may change a game whose owner's hash is `owner`: its key is the
    /// owner's, or the game is its account's.
    pub fn may_change(&self, owner: Option<&[u8; 32]>) -> bool {
        may_change(owner, self.key.as_deref())
            || owner.is_some_and(|stored| Some(stored) == self.account.as_ref())
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
    fn an_accounts_games_are_changed_by_its_session_and_no_other() {
        let account = [7u8; 32];
        let signed_in = Caller {
            key: None,
            account: Some(account),
        };
        assert!(signed_in.may_change(Some(&account)));
        assert!(!signed_in.may_change(Some(&[8u8; 32])));
        let other = Caller {
            key: Some("00112233445566778899aabbccddeeff".to_owned()),
            account: Some([9u8; 32]),
        };
        assert!(!other.may_change(Some(&account)));
        assert!(!Caller::default().may_change(Some(&account)));
    }

    #[test]
    fn a_request_without_a_key_is_given_one() {
        let owner = PlayerKey(None).owner();
        let made = owner.made.expect("a key is made");
        assert_eq!(made.len(), 32);
        assert!(may_change(Some(&owner.hash), Some(&made)));
    }
}
