//! What is proven about positions beyond the endgame tables: the claims of the solve's
//! certificates (docs/solve/, compiled in; each was confirmed by `sow solve verify`, a
//! checker written apart from the prover, docs/solve.md) and the bounds this server's own
//! budgeted solves proved ([`crate::services::solves`]). The opening explorer reads them.
//!
//! A claim is about a position as the tables index it (the mover turned to South, the
//! captures so far ignored), so one certificate serves every line that reaches its
//! positions, and certificates of one family of tables pool their claims.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use sowing::Position;
use sowing_solve::certificate::{Certificate, Entry};
use sowing_solve::{key_index, key_of, key_seeds, Key, Kind};
use sowing_tables::Family;

/// The certificates in docs/solve/: their names and bytes.
pub const CERTIFICATES: &[(&str, &[u8])] = &[
    (
        "hoyito-ii.cert",
        include_bytes!("../../../../docs/solve/hoyito-ii.cert"),
    ),
    (
        "hoyito-iii.cert",
        include_bytes!("../../../../docs/solve/hoyito-iii.cert"),
    ),
    (
        "hoyito-iii-four-south.cert",
        include_bytes!("../../../../docs/solve/hoyito-iii-four-south.cert"),
    ),
    (
        "hoyito-iii-four-north.cert",
        include_bytes!("../../../../docs/solve/hoyito-iii-four-north.cert"),
    ),
    (
        "ayoayo.cert",
        include_bytes!("../../../../docs/solve/ayoayo.cert"),
    ),
    (
        "ayoayo-holder.cert",
        include_bytes!("../../../../docs/solve/ayoayo-holder.cert"),
    ),
    // The starts not solved yet: bounds only.
    (
        "hoyito-ii-opponent.cert",
        include_bytes!("../../../../docs/solve/hoyito-ii-opponent.cert"),
    ),
    (
        "hoyito-iii-opponent.cert",
        include_bytes!("../../../../docs/solve/hoyito-iii-opponent.cert"),
    ),
    (
        "hoyito-iii-opponent-four-south.cert",
        include_bytes!("../../../../docs/solve/hoyito-iii-opponent-four-south.cert"),
    ),
    (
        "hoyito-iii-opponent-four-north.cert",
        include_bytes!("../../../../docs/solve/hoyito-iii-opponent-four-north.cert"),
    ),
];

/// Proven bounds on a position's value for its mover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// V ≥ this, when proven.
    pub lower: Option<i32>,
    /// V ≤ this, when proven.
    pub upper: Option<i32>,
}

impl Bounds {
    /// The tighter of two sets of bounds (both are proven, so both hold).
    fn meet(self, other: Bounds) -> Bounds {
        Bounds {
            // `None` orders below every `Some`.
            lower: self.lower.max(other.lower),
            upper: match (self.upper, other.upper) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }

    /// Whether anything is proven.
    pub fn any(self) -> bool {
        self.lower.is_some() || self.upper.is_some()
    }
}

/// One certificate's claims: sorted by (seeds, index) as in the file, its roots beside.
struct Claims {
    family: Family,
    claims: Vec<Entry>,
    roots: HashMap<Key, Bounds>,
}

impl Claims {
    fn of(certificate: Certificate) -> Claims {
        let family = certificate.family();
        let mut roots: HashMap<Key, Bounds> = HashMap::new();
        for root in &certificate.roots {
            let bound = match root.kind {
                Kind::Lower => Bounds {
                    lower: Some(root.bound),
                    upper: None,
                },
                Kind::Upper => Bounds {
                    lower: None,
                    upper: Some(root.bound),
                },
            };
            let key = key_of(&family, &root.position);
            let known = roots.entry(key).or_default();
            *known = known.meet(bound);
        }
        Claims {
            family,
            claims: certificate.claims,
            roots,
        }
    }

    fn bounds(&self, key: Key) -> Bounds {
        let mut known = self.roots.get(&key).copied().unwrap_or_default();
        let at = self
            .claims
            .binary_search_by_key(&(key_seeds(key), key_index(key)), |e| {
                (key_seeds(e.key), key_index(e.key))
            });
        if let Ok(at) = at {
            let entry = &self.claims[at];
            known = known.meet(Bounds {
                lower: entry.lower.map(|(bound, _)| bound),
                upper: entry.upper,
            });
        }
        known
    }
}

/// The certificates, read once.
fn certificates() -> &'static [Claims] {
    static READ: OnceLock<Vec<Claims>> = OnceLock::new();
    READ.get_or_init(|| {
        CERTIFICATES
            .iter()
            .filter_map(
                |(name, bytes)| match Certificate::decode(bytes, Path::new(name)) {
                    Ok(certificate) => Some(Claims::of(certificate)),
                    // Compiled in and checked by tests: only a broken build gets here.
                    Err(e) => {
                        tracing::error!(certificate = name, error = %e, "unreadable certificate");
                        None
                    }
                },
            )
            .collect()
    })
}

/// Where a proven bound came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A certificate of docs/solve/.
    Certificate,
    /// A solve run on this server.
    Solve,
}

/// The proven bounds: the certificates' and those this server's solves added.
#[derive(Default)]
pub struct Proofs {
    solved: Mutex<HashMap<(Family, Key), Bounds>>,
}

impl Proofs {
    /// What is proven about `position`'s value for its mover (the game not over, more seeds
    /// than the tables hold), and where the tightest part came from.
    pub fn bounds(&self, position: &Position) -> (Bounds, Source) {
        let family = Family::of(position.rules());
        let seeds = position.seeds_on_board();
        if sowing_solve::check_family(&family, seeds).is_err() {
            return (Bounds::default(), Source::Certificate);
        }
        let key = key_of(&family, position);
        let mut known = Bounds::default();
        for claims in certificates().iter().filter(|c| c.family == family) {
            known = known.meet(claims.bounds(key));
        }
        let solved = self
            .solved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(family, key))
            .copied();
        let (known, source) = match solved {
            Some(solved) if solved.meet(known) != known => (solved.meet(known), Source::Solve),
            _ => (known, Source::Certificate),
        };
        // |V| never exceeds the seeds on the board: a bound at that end closes the value (a
        // claim says nothing past it, as the certificates leave out what the seeds prove).
        let seeds = seeds as i32;
        let closed = Bounds {
            lower: (known.upper == Some(-seeds)).then_some(-seeds),
            upper: (known.lower == Some(seeds)).then_some(seeds),
        };
        (known.meet(closed), source)
    }

    /// Keeps bounds a solve proved on `position`.
    pub fn add(&self, position: &Position, bounds: Bounds) {
        let family = Family::of(position.rules());
        if !bounds.any() || sowing_solve::check_family(&family, position.seeds_on_board()).is_err()
        {
            return;
        }
        let key = key_of(&family, position);
        let mut solved = self.solved.lock().unwrap_or_else(|e| e.into_inner());
        let known = solved.entry((family, key)).or_default();
        *known = known.meet(bounds);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_certificate_reads() {
        assert_eq!(certificates().len(), CERTIFICATES.len());
    }

    #[test]
    fn bounds_meet_to_the_tighter() {
        let a = Bounds {
            lower: Some(-4),
            upper: None,
        };
        let b = Bounds {
            lower: Some(-8),
            upper: Some(2),
        };
        assert_eq!(
            a.meet(b),
            Bounds {
                lower: Some(-4),
                upper: Some(2)
            }
        );
        assert_eq!(Bounds::default().meet(a), a);
    }
}
