//! Helpers shared by the `sow` command tests: reading output, checking refusals, and
//! requests to a `sow serve` child process ([`request`]).
// Each test binary uses only some of them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

mod http;
#[allow(unused_imports)]
pub use http::{request, try_request, PLAYER_KEY};

/// `sow` with these arguments, without `SOWING_TABLES` from the environment: a test names
/// the tables it uses.
pub fn sow(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .env_remove("SOWING_TABLES")
        .output()
        .expect("sow runs")
}

/// Success: exit code 0 (standard error shown when not).
pub fn assert_ok(output: &Output) {
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(output));
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// A refusal: exit code 2, nothing on standard output, a message on standard error.
pub fn assert_refused(output: &Output, says: &str) {
    assert_eq!(output.status.code(), Some(2), "stderr: {}", stderr(output));
    assert!(output.stdout.is_empty(), "stdout: {}", stdout(output));
    assert!(stderr(output).contains(says), "stderr: {}", stderr(output));
}

/// A fresh directory under the system's temporary one (`sow-{name}-{pid}`), removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sow-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The path of `name` inside it.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
