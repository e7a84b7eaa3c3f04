//! What the store's SQL is written in, once for both databases: the values bound and read
//! ([`Value`], [`Record`]), the statements a backend runs ([`Sql`]), and the times the rows
//! keep.

use sowing::Side;

use super::error::{StoreError, StoreResult};

/// A value bound to or read from SQL: the few types the schema uses.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
    Bool(bool),
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Real(x)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Int(i64::from(n))
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl From<&String> for Value {
    fn from(text: &String) -> Value {
        Value::Text(text.clone())
    }
}

impl From<Side> for Value {
    fn from(side: Side) -> Value {
        Value::from(side.name())
    }
}

impl From<[u8; 32]> for Value {
    fn from(hash: [u8; 32]) -> Value {
        Value::Blob(hash.to_vec())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

/// The values of a statement's parameters, `?1` first.
macro_rules! values {
    ($($value:expr),* $(,)?) => { [$($crate::store::sql::Value::from($value)),*] };
}
pub(super) use values;

/// A row read back: its columns in the order selected.
pub(super) struct Record(pub(super) Vec<Value>);

impl Record {
    /// The columns from `at` on, taken off this record.
    pub(super) fn split_off(&mut self, at: usize) -> Record {
        Record(self.0.split_off(at.min(self.0.len())))
    }

    pub(super) fn bad(&self, column: usize, what: &str) -> StoreError {
        StoreError::Database(format!(
            "column {column} holds {:?}, not {what}",
            self.0.get(column)
        ))
    }

    pub(super) fn opt_int(&self, column: usize) -> StoreResult<Option<i64>> {
        match self.0.get(column) {
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(Value::Null) => Ok(None),
            _ => Err(self.bad(column, "an integer")),
        }
    }

    pub(super) fn int(&self, column: usize) -> StoreResult<i64> {
        self.opt_int(column)?
            .ok_or_else(|| self.bad(column, "an integer"))
    }

    /// A count or size: an integer that is not negative.
    pub(super) fn size(&self, column: usize) -> StoreResult<usize> {
        usize::try_from(self.int(column)?).map_err(|_| self.bad(column, "a count"))
    }

    pub(super) fn opt_small(&self, column: usize) -> StoreResult<Option<u32>> {
        self.opt_int(column)?
            .map(|n| u32::try_from(n).map_err(|_| self.bad(column, "a small count")))
            .transpose()
    }

    pub(super) fn opt_text(&self, column: usize) -> StoreResult<Option<String>> {
        match self.0.get(column) {
            Some(Value::Text(text)) => Ok(Some(text.clone())),
            Some(Value::Null) => Ok(None),
            _ => Err(self.bad(column, "text")),
        }
    }

    pub(super) fn text(&self, column: usize) -> StoreResult<String> {
        self.opt_text(column)?
            .ok_or_else(|| self.bad(column, "text"))
    }

    pub(super) fn flag(&self, column: usize) -> StoreResult<bool> {
        match self.0.get(column) {
            Some(Value::Bool(b)) => Ok(*b),
            // SQLite keeps booleans as 0 and 1.
            Some(Value::Int(n)) => Ok(*n != 0),
            _ => Err(self.bad(column, "a boolean")),
        }
    }

    pub(super) fn real(&self, column: usize) -> StoreResult<f64> {
        match self.0.get(column) {
            Some(Value::Real(x)) => Ok(*x),
            // SQLite may hand back a whole number stored in a REAL column as an integer.
            Some(Value::Int(n)) => Ok(*n as f64),
            _ => Err(self.bad(column, "a number")),
        }
    }

    pub(super) fn opt_real(&self, column: usize) -> StoreResult<Option<f64>> {
        match self.0.get(column) {
            Some(Value::Null) => Ok(None),
            _ => self.real(column).map(Some),
        }
    }

    pub(super) fn opt_side(&self, column: usize) -> StoreResult<Option<Side>> {
        self.opt_text(column)?
            .map(|text| text.parse::<Side>().map_err(|_| self.bad(column, "a side")))
            .transpose()
    }

    pub(super) fn opt_hash(&self, column: usize) -> StoreResult<Option<[u8; 32]>> {
        match self.0.get(column) {
            Some(Value::Blob(blob)) => <[u8; 32]>::try_from(blob.as_slice())
                .map(Some)
                .map_err(|_| self.bad(column, "a 32-byte hash")),
            Some(Value::Null) => Ok(None),
            _ => Err(self.bad(column, "a 32-byte hash")),
        }
    }
}

/// Statements on a connection (inside a transaction when the backend says so). The SQL is
/// written with `?1`, `?2`… parameters, which a backend may respell.
pub(super) trait Sql {
    /// Runs a statement; the rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> StoreResult<usize>;
    /// Runs a query; its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> StoreResult<Vec<Record>>;
    /// Makes every other transaction that asks for `key` wait until this one ends:
    /// PostgreSQL's transaction-level advisory lock; nothing for SQLite, whose writes are
    /// one at a time already.
    fn serialize_on(&mut self, key: i64) -> StoreResult<()>;
}

impl dyn Sql + '_ {
    pub(super) fn query_opt(&mut self, sql: &str, params: &[Value]) -> StoreResult<Option<Record>> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    pub(super) fn query_one(&mut self, sql: &str, params: &[Value]) -> StoreResult<Record> {
        self.query_opt(sql, params)?
            .ok_or_else(|| StoreError::Database(format!("no row from {sql:?}")))
    }
}

/// A limit as a parameter (PostgreSQL's `LIMIT` takes a 64-bit integer).
pub(super) fn limit(n: usize) -> Value {
    Value::from(n.min(i64::MAX as usize))
}

/// The time now as the rows keep it: UTC, `2026-12-01 18:47:00` (as SQLite's
/// `datetime('now')` writes it), made here so that both databases store the same text.
pub(super) fn now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_text(secs)
}

/// `secs` after the Unix epoch as `YYYY-MM-DD HH:MM:SS` (UTC), by the civil calendar
/// (Howard Hinnant's days-to-date).
fn utc_text(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rest / 3_600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_sqlite_writes_them() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(utc_text(1_796_150_820), "2026-12-01 18:47:00");
        assert_eq!(utc_text(4_107_542_399), "2100-02-28 23:59:59");
    }

    #[test]
    fn a_record_refuses_a_column_of_another_type() {
        let r = Record(vec![Value::Text("x".into()), Value::Int(-1), Value::Null]);
        assert!(r.int(0).is_err());
        assert!(r.size(1).is_err());
        assert_eq!(r.opt_text(2), Ok(None));
        assert!(r.text(2).is_err());
        assert!(r.opt_hash(0).is_err());
    }
}
