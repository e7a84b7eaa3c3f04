//! Exact scores: points in half-points, Sonneborn–Berger in quarter-points.

use std::fmt;

/// A score counted in half-points, so that a draw stays exact: `HalfPoints(5)` is 2½ points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfPoints(pub u32);

impl HalfPoints {
    /// The score as a number of points.
    pub fn points(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

/// Written as a decimal number of points: `2.5`, `3`.
impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 % 2 {
            0 => write!(f, "{}", self.0 / 2),
            _ => write!(f, "{}.5", self.0 / 2),
        }
    }
}

/// A score counted in quarter-points: Sonneborn–Berger adds half of a drawn opponent's
/// score, which may itself hold a half. `QuarterPoints(11)` is 2¾ points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QuarterPoints(pub u32);

impl QuarterPoints {
    /// The score as a number of points.
    pub fn points(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

/// Written as a decimal number of points: `2.75`, `3.5`, `4`.
impl fmt::Display for QuarterPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        match self.0 % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_as_decimal_points() {
        assert_eq!(HalfPoints(0).to_string(), "0");
        assert_eq!(HalfPoints(5).to_string(), "2.5");
        assert_eq!(HalfPoints(6).to_string(), "3");
        assert_eq!(QuarterPoints(11).to_string(), "2.75");
        assert_eq!(QuarterPoints(9).to_string(), "2.25");
        assert_eq!(QuarterPoints(14).to_string(), "3.5");
        assert_eq!(QuarterPoints(16).to_string(), "4");
        assert_eq!(QuarterPoints(11).points(), 2.75);
    }
}
