//! The checker: confirms a certificate or refuses it, naming the first position that fails.
//!
//! Written apart from the prover: it sows every move through the rules crate
//! (`Position::successors`), reads leaf values from the tables, and trusts nothing else in
//! the file. It checks, for every claim of the certificate:
//!
//! - **V ≥ b** (with its move m): m is legal, and what m leads to is worth ≥ b to the mover:
//!   the game ends with a gain ≥ b, or the next position is a leaf (at most S seeds) whose
//!   table value makes m worth ≥ b, or |bound| needed there is beyond the seeds left (the
//!   value never exceeds the seeds on the board), or the certificate claims the bound needed
//!   there (V(next) ≥ b − gain after an extra turn, V(next) ≤ gain − b otherwise);
//! - **V ≤ b**: the same for *every* legal move, each worth ≤ b.
//!
//! and then that the claims V ≥ b with b ≥ 1 and V ≤ b with b ≤ −1 (each needs a gain to
//! be realised: a play that never ends is worth 0) use one another without a cycle: they
//! form finite reachability proofs. Claims with b ≤ 0 (resp. ≥ 0) may rely on one another
//! in cycles: a play that stays in them for ever is worth 0, within the bound (a safety
//! proof). docs/solve.md gives the argument that a certificate passing these checks proves
//! its roots.

use std::collections::HashMap;

use sowing::{Move, Pit, Position};
use sowing_tables::{Family, Tables};

use crate::certificate::{Certificate, Root};
use crate::{Key, Kind, SolveError};

/// What a confirmed certificate proves.
#[derive(Clone, Debug)]
pub struct Report {
    /// Every root claim, each now proven.
    pub roots: Vec<Root>,
    /// Claims checked.
    pub claims: usize,
}

/// A claim of the certificate: a key and a kind.
type Node = (Key, Kind);

struct Checker<'a> {
    family: Family,
    tables: &'a Tables,
    leaf_seeds: usize,
    lower: HashMap<Key, (i32, u8)>,
    upper: HashMap<Key, i32>,
}

/// How a requirement on a position is met.
enum Met {
    /// By the rules, the tables or the seeds left: nothing more to prove.
    Leaf,
    /// By a claim of the certificate.
    Claim(Node),
}

/// The mover's captures minus the opponent's between two positions.
fn captured_margin(parent: &Position, child: &Position) -> i32 {
    let me = parent.to_move();
    let (a, b) = (parent.captured(), child.captured());
    i32::from(b[me]) - i32::from(a[me]) - (i32::from(b[!me]) - i32::from(a[!me]))
}

fn refuse(position: &Position, why: String) -> SolveError {
    SolveError::Refused {
        position: position.to_string(),
        why,
    }
}

fn move_name(position: &Position, mv: Move) -> String {
    mv.name(position.rules().pits_per_row()).to_string()
}

impl Checker<'_> {
    fn key(&self, position: &Position) -> Key {
        let (seeds, index) = self.family.locate(position);
        (index << 7) | seeds as u64
    }

    /// How "V(position) ≥ bound" (Lower) or "≤ bound" (Upper) is met, or why it is not.
    fn meets(&self, position: &Position, kind: Kind, bound: i32) -> Result<Met, String> {
        let seeds = position.seeds_on_board() as i32;
        let trivially = match kind {
            Kind::Lower => bound <= -seeds,
            Kind::Upper => bound >= seeds,
        };
        if position.is_over() {
            // Nothing more to come: V = 0.
            return match kind {
                Kind::Lower if 0 >= bound => Ok(Met::Leaf),
                Kind::Upper if 0 <= bound => Ok(Met::Leaf),
                _ => Err(format!("the game is over (worth 0), not {kind} {bound}")),
            };
        }
        if trivially {
            return Ok(Met::Leaf);
        }
        if position.seeds_on_board() <= self.leaf_seeds {
            let value = self
                .tables
                .value(position)
                .map_err(|e| format!("the tables cannot value it: {e}"))?;
            let holds = match kind {
                Kind::Lower => value >= bound,
                Kind::Upper => value <= bound,
            };
            return if holds {
                Ok(Met::Leaf)
            } else {
                Err(format!("the tables value it {value}, not {kind} {bound}"))
            };
        }
        let key = self.key(position);
        let claimed = match kind {
            Kind::Lower => self.lower.get(&key).map(|&(b, _)| b),
            Kind::Upper => self.upper.get(&key).copied(),
        };
        match claimed {
            Some(b)
                if (kind == Kind::Lower && b >= bound) || (kind == Kind::Upper && b <= bound) =>
            {
                Ok(Met::Claim((key, kind)))
            }
            Some(b) => Err(format!(
                "it needs V {kind} {bound}; the certificate claims only V {kind} {b}"
            )),
            None => Err(format!(
                "it needs V {kind} {bound}; the certificate has no such claim"
            )),
        }
    }

    /// What a move of `position` requires of the position it leads to, for the move to be
    /// worth ≥ bound (Lower) or ≤ bound (Upper) to the mover.
    fn requirement(
        &self,
        position: &Position,
        child: &Position,
        kind: Kind,
        bound: i32,
    ) -> (Kind, i32) {
        let gain = captured_margin(position, child);
        if child.is_over() || child.to_move() == position.to_move() {
            (kind, bound - gain)
        } else {
            let flipped = match kind {
                Kind::Lower => Kind::Upper,
                Kind::Upper => Kind::Lower,
            };
            (flipped, gain - bound)
        }
    }

    /// Checks one claim; returns the claims it relies on.
    fn check_claim(&self, key: Key, kind: Kind) -> Result<Vec<Node>, SolveError> {
        let seeds = crate::key_seeds(key);
        let index = crate::key_index(key);
        let Some(position) = (seeds > 0 && index < self.family.layer_len(seeds))
            .then(|| self.family.position(seeds, index))
        else {
            return Err(SolveError::Refused {
                position: format!("layer {seeds}, index {index}"),
                why: format!("no position of {} has that place", self.family),
            });
        };
        if position.is_over() {
            return Err(refuse(
                &position,
                "a claim about a position that is over at once".into(),
            ));
        }
        let successors = position.successors();
        let mut uses = Vec::new();
        match kind {
            Kind::Lower => {
                let (bound, code) = self.lower[&key];
                let n = position.rules().pits_per_row();
                let mv = match code {
                    crate::PASS => Some(Move::Pass),
                    c if usize::from(c) < n => {
                        Some(Move::Sow(Pit::of(position.to_move(), c.into(), n)))
                    }
                    _ => None,
                };
                let Some((mv, child)) = mv.and_then(|mv| successors.iter().find(|s| s.0 == mv))
                else {
                    return Err(refuse(
                        &position,
                        format!("V ≥ {bound} by move code {code}, which is not a legal move here"),
                    ));
                };
                let (need, at) = self.requirement(&position, child, Kind::Lower, bound);
                match self.meets(child, need, at) {
                    Ok(Met::Leaf) => {}
                    Ok(Met::Claim(node)) => uses.push(node),
                    Err(why) => {
                        return Err(refuse(
                            &position,
                            format!(
                                "V ≥ {bound} by {}: after it, {child}: {why}",
                                move_name(&position, *mv)
                            ),
                        ))
                    }
                }
            }
            Kind::Upper => {
                let bound = self.upper[&key];
                for (mv, child) in &successors {
                    let (need, at) = self.requirement(&position, child, Kind::Upper, bound);
                    match self.meets(child, need, at) {
                        Ok(Met::Leaf) => {}
                        Ok(Met::Claim(node)) => uses.push(node),
                        Err(why) => {
                            return Err(refuse(
                                &position,
                                format!(
                                    "V ≤ {bound}, but the reply {} is not covered: after it, {child}: {why}",
                                    move_name(&position, *mv)
                                ),
                            ))
                        }
                    }
                }
            }
        }
        Ok(uses)
    }

    /// Whether a claim must be realised in finitely many moves (a play that never ends,
    /// worth 0, would not satisfy it).
    fn needs_reaching(&self, (key, kind): Node) -> bool {
        match kind {
            Kind::Lower => self.lower[&key].0 >= 1,
            Kind::Upper => self.upper[&key] <= -1,
        }
    }
}

/// Checks a certificate against the tables.
///
/// # Errors
/// [`SolveError::Refused`] naming the first position whose claim fails; other errors when
/// the tables are not those of the certificate or hold fewer seeds than its leaves.
pub fn verify(certificate: &Certificate, tables: &Tables) -> Result<Report, SolveError> {
    let family = certificate.family();
    if tables.family() != family {
        return Err(SolveError::Unsupported(format!(
            "the certificate is for {family}, the tables are {}",
            tables.family()
        )));
    }
    if tables.max_seeds() < certificate.leaf_seeds {
        return Err(SolveError::Unsupported(format!(
            "the certificate's leaves are valued by tables to {} seeds; {} holds only {}",
            certificate.leaf_seeds,
            tables.dir().display(),
            tables.max_seeds()
        )));
    }
    let most = certificate
        .claims
        .iter()
        .map(|e| crate::key_seeds(e.key))
        .chain(
            certificate
                .roots
                .iter()
                .map(|r| r.position.seeds_on_board()),
        )
        .max()
        .unwrap_or(0);
    crate::check_family(&family, most)?;
    let mut checker = Checker {
        family,
        tables,
        leaf_seeds: certificate.leaf_seeds,
        lower: HashMap::new(),
        upper: HashMap::new(),
    };
    for entry in &certificate.claims {
        let position = || {
            crate::position_of(&family, entry.key)
                .map_or_else(|| format!("key {}", entry.key), |p| p.to_string())
        };
        if let Some(lower) = entry.lower {
            if checker.lower.insert(entry.key, lower).is_some() {
                return Err(SolveError::Refused {
                    position: position(),
                    why: "two claims V ≥ … for one position".into(),
                });
            }
        }
        if let Some(upper) = entry.upper {
            if checker.upper.insert(entry.key, upper).is_some() {
                return Err(SolveError::Refused {
                    position: position(),
                    why: "two claims V ≤ … for one position".into(),
                });
            }
        }
    }
    // Every claim, locally; the edges between claims that must be reached.
    let mut nodes: Vec<Node> = checker
        .lower
        .keys()
        .map(|&k| (k, Kind::Lower))
        .chain(checker.upper.keys().map(|&k| (k, Kind::Upper)))
        .collect();
    nodes.sort_unstable();
    let mut edges: HashMap<Node, Vec<Node>> = HashMap::new();
    for &node in &nodes {
        let uses = checker.check_claim(node.0, node.1)?;
        if checker.needs_reaching(node) {
            let reach: Vec<Node> = uses
                .into_iter()
                .filter(|&u| checker.needs_reaching(u))
                .collect();
            if !reach.is_empty() {
                edges.insert(node, reach);
            }
        }
    }
    // No cycle among them: a depth-first search with colours (iterative, for long chains).
    let mut colour: HashMap<Node, u8> = HashMap::new(); // 1 = on the stack, 2 = done
    for &start in edges.keys() {
        if colour.contains_key(&start) {
            continue;
        }
        let mut stack: Vec<(Node, usize)> = vec![(start, 0)];
        colour.insert(start, 1);
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let out = edges.get(&node).map_or(&[][..], Vec::as_slice);
            if *next < out.len() {
                let to = out[*next];
                *next += 1;
                match colour.get(&to) {
                    Some(1) => {
                        let position = crate::position_of(&family, to.0)
                            .map_or_else(|| format!("key {}", to.0), |p| p.to_string());
                        let bound = match to.1 {
                            Kind::Lower => checker.lower[&to.0].0,
                            Kind::Upper => checker.upper[&to.0],
                        };
                        return Err(SolveError::Refused {
                            position,
                            why: format!(
                                "the claim V {} {bound} relies on itself through a cycle: a gain \
                                 must be reached in finitely many moves",
                                to.1
                            ),
                        });
                    }
                    Some(_) => {}
                    None => {
                        colour.insert(to, 1);
                        stack.push((to, 0));
                    }
                }
            } else {
                colour.insert(node, 2);
                stack.pop();
            }
        }
    }
    // The roots.
    for root in &certificate.roots {
        if let Err(why) = checker.meets(&root.position, root.kind, root.bound) {
            return Err(refuse(
                &root.position,
                format!(
                    "the root claim {} (V {} {}) is not proven: {why}",
                    root.label, root.kind, root.bound
                ),
            ));
        }
    }
    Ok(Report {
        roots: certificate.roots.clone(),
        claims: nodes.len(),
    })
}
