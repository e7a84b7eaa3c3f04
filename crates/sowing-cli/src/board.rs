//! The board drawn the way it lies on the table: North's row on top, read right to left
//! (the ring runs counter-clockwise), South's row below, pit letters beside the counts.

use std::fmt::Write;

use sowing::{Pit, Position, Side, Variant};

/// The position as text lines, seen from South's side of the table.
pub fn draw(position: &Position) -> String {
    let rules = position.rules();
    let n = rules.pits_per_row();
    let ayoayo = rules.variant() == Variant::Ayoayo;
    let captured = position.captured();
    // North's row is read right to left from South's side of the table.
    let row_pits = |side: Side| -> Vec<Pit> {
        let mut pits: Vec<Pit> = (0..n).map(|c| Pit::of(side, c, n)).collect();
        if side == Side::North {
            pits.reverse();
        }
        pits
    };
    let letters = |side: Side| -> String {
        row_pits(side)
            .into_iter()
            .map(|pit| format!("  {} ", pit.letter(n)))
            .collect()
    };
    let row = |side: Side| -> String {
        row_pits(side)
            .into_iter()
            .map(|pit| format!("{:>3} ", position.seeds(pit)))
            .collect()
    };
    let (store, margin) = if ayoayo {
        ("store", "        ")
    } else {
        ("captured", "")
    };
    let mark = |side: Side| {
        if position.to_move() == side {
            "▶"
        } else {
            " "
        }
    };
    let mut out = String::new();
    let _ = writeln!(out, "   {margin}{}", letters(Side::North));
    if ayoayo {
        let _ = writeln!(
            out,
            "{} N [{:>3}] {}",
            mark(Side::North),
            captured.north,
            row(Side::North)
        );
        let _ = writeln!(
            out,
            "{} S {margin}{}[{:>3}]",
            mark(Side::South),
            row(Side::South),
            captured.south
        );
    } else {
        let _ = writeln!(
            out,
            "{} N {}   North {store}: {}",
            mark(Side::North),
            row(Side::North),
            captured.north
        );
        let _ = writeln!(
            out,
            "{} S {}   South {store}: {}",
            mark(Side::South),
            row(Side::South),
            captured.south
        );
    }
    let _ = writeln!(out, "   {margin}{}", letters(Side::South));
    out
}
