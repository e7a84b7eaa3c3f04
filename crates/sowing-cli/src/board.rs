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
    let cell = |pit: Pit| format!("{:>3} ", position.seeds(pit));
    let letters = |side: Side| -> String {
        let columns: Box<dyn Iterator<Item = usize>> = match side {
            Side::North => Box::new((0..n).rev()),
            Side::South => Box::new(0..n),
        };
        columns
            .map(|c| format!("  {} ", Pit::of(side, c, n).letter(n)))
            .collect()
    };
    let row = |side: Side| -> String {
        let columns: Box<dyn Iterator<Item = usize>> = match side {
            Side::North => Box::new((0..n).rev()),
            Side::South => Box::new(0..n),
        };
        columns.map(|c| cell(Pit::of(side, c, n))).collect()
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
