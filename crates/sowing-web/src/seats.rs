//! Seat tokens: 128 random bits from the operating system, given to the seat's holder once,
//! in hex; the store keeps only their SHA-256, so a copy of the database moves no piece.

use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new seat token (32 hex digits) and the hash to store.
pub fn new_token() -> (String, [u8; 32]) {
    let mut bits = [0u8; 16];
    OsRng.fill_bytes(&mut bits);
    let token: String = bits.iter().map(|b| format!("{b:02x}")).collect();
    let hash = hash(&token);
    (token, hash)
}

/// The stored form of a token.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `token` is the one whose hash is `stored`: compares every byte whatever the
/// first difference, so the time taken says nothing of the stored hash.
pub fn holds(stored: &[u8; 32], token: &str) -> bool {
    let given = hash(token);
    stored
        .iter()
        .zip(given.iter())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_128_bits_in_hex_and_only_it_matches_its_hash() {
        let (token, stored) = new_token();
        assert_eq!(token.len(), 32);
        assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(holds(&stored, &token));
        let (other, _) = new_token();
        assert_ne!(token, other);
        assert!(!holds(&stored, &other));
        assert!(!holds(&stored, ""));
    }

    #[test]
    fn the_hash_is_sha_256_of_the_token_text() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let got: String = hash("abc").iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, expected);
    }
}
