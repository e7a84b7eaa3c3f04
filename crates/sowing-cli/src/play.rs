//! `sow play`: play in the terminal.
use anyhow::Result;

/// Play in the terminal.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<()> {
    Ok(())
}
