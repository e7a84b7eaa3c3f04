//! The listening socket, made for many clients arriving at once.
//!
//! Two defaults broke `sow-load` with 1,000 games starting together: the listen backlog of
//! 128 (tokio's and the standard library's) overflowed while the accept loop caught up, the
//! kernel fell back to SYN cookies and reset the connections whose cookie it could no longer
//! check ("Connection reset by peer"); and a soft limit of 1,024 open files left no
//! descriptor for the thousandth connection (accept then fails, and the server pauses a
//! second). Here the backlog is as deep as the kernel allows, and the soft limit is raised
//! to the hard one.

use std::io;
use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpSocket};

/// The listen backlog asked for; the kernel caps it at `net.core.somaxconn` (4096 by default
/// on Linux since 5.4).
pub const LISTEN_BACKLOG: u32 = 4096;

/// Listens on `addr` with a backlog of [`LISTEN_BACKLOG`] (and `SO_REUSEADDR`, as tokio's
/// own `bind`).
///
/// # Errors
/// When the address is taken or cannot be bound.
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Raises this process's soft limit on open files to its hard limit, so that each
/// connection can have its descriptor; returns the new soft limit. Does nothing where the
/// platform has no such limit.
///
/// # Errors
/// When the limit cannot be read or set.
pub fn raise_open_files_limit() -> io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}
