//! Game records.
/// x
pub struct Record;
/// x
pub struct RecordError;
