//! Abuse limits of the live routes, per client address: token buckets for creating games
//! and for seat acts (moves, offers), a cap on sockets, and the fixed sizes and times that
//! docs/api.md lists. Counted in this process's memory: they guard one server.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A rate: `burst` at once, then one more every `every`.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Requests allowed at once.
    pub burst: u32,
    /// The time to earn one more.
    pub every: Duration,
}

/// The numbers (docs/api.md, "Limits").
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Off: no rate or socket limit (load tests on loopback); sizes still hold.
    pub enabled: bool,
    /// Live games created (and challenges accepted), per address.
    pub create: Rate,
    /// Seat acts (moves, resign, offers), per address.
    pub act: Rate,
    /// Open lobby challenges per address.
    pub lobby_per_address: usize,
    /// Open lobby challenges in all.
    pub lobby_total: usize,
    /// Sockets open at once per address.
    pub sockets_per_address: usize,
    /// The largest socket message a client may send, bytes.
    pub message_bytes: usize,
    /// The largest live request body, bytes.
    pub body_bytes: usize,
    /// The longest name, characters.
    pub name_chars: usize,
    /// A live game no seat acted in for this long is closed (no result).
    pub abandoned_after: Duration,
    /// An open challenge nobody accepted for this long is closed.
    pub open_for: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            enabled: true,
            create: Rate {
                burst: 10,
                every: Duration::from_secs(6),
            },
            act: Rate {
                burst: 30,
                every: Duration::from_millis(200),
            },
            lobby_per_address: 3,
            lobby_total: 200,
            sockets_per_address: 16,
            message_bytes: 1024,
            body_bytes: 4096,
            name_chars: 32,
            abandoned_after: Duration::from_secs(7 * 24 * 3600),
            open_for: Duration::from_secs(3600),
        }
    }
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Keeps the counts.
pub struct Limiter {
    limits: Limits,
    create: Mutex<HashMap<IpAddr, Bucket>>,
    act: Mutex<HashMap<IpAddr, Bucket>>,
    sockets: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A socket's place in its address's count, given back on drop.
pub struct SocketPermit {
    sockets: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut sockets = self.sockets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = sockets.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                sockets.remove(&self.address);
            }
        }
    }
}

/// Buckets kept before the full ones are dropped.
const KEPT_BUCKETS: usize = 10_000;

fn take(map: &Mutex<HashMap<IpAddr, Bucket>>, rate: Rate, address: IpAddr, now: Instant) -> bool {
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    let burst = f64::from(rate.burst);
    let earn = |b: &Bucket| {
        (b.tokens + now.duration_since(b.at).as_secs_f64() / rate.every.as_secs_f64()).min(burst)
    };
    if map.len() > KEPT_BUCKETS {
        map.retain(|_, b| earn(b) < burst);
    }
    let bucket = map.entry(address).or_insert(Bucket {
        tokens: burst,
        at: now,
    });
    bucket.tokens = earn(bucket);
    bucket.at = now;
    if bucket.tokens >= 1.0 {
        bucket.tokens -= 1.0;
        true
    } else {
        false
    }
}

impl Limiter {
    /// Counts under `limits`.
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            limits,
            create: Mutex::default(),
            act: Mutex::default(),
            sockets: Arc::default(),
        }
    }

    /// The numbers.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether `address` may create a game now (and counts it).
    pub fn may_create(&self, address: IpAddr) -> bool {
        !self.limits.enabled || take(&self.create, self.limits.create, address, Instant::now())
    }

    /// Whether `address` may act in a game now (and counts it).
    pub fn may_act(&self, address: IpAddr) -> bool {
        !self.limits.enabled || take(&self.act, self.limits.act, address, Instant::now())
    }

    /// A place for one more socket of `address`, or `None` at the cap.
    pub fn socket(&self, address: IpAddr) -> Option<SocketPermit> {
        let mut sockets = self.sockets.lock().unwrap_or_else(|e| e.into_inner());
        let count = sockets.entry(address).or_insert(0);
        if self.limits.enabled && *count >= self.limits.sockets_per_address {
            return None;
        }
        *count += 1;
        Some(SocketPermit {
            sockets: self.sockets.clone(),
            address,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_one_per_period() {
        let map = Mutex::default();
        let rate = Rate {
            burst: 3,
            every: Duration::from_secs(10),
        };
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let t0 = Instant::now();
        assert!((0..3).all(|_| take(&map, rate, a, t0)));
        assert!(!take(&map, rate, a, t0));
        assert!(
            take(&map, rate, b, t0),
            "another address has its own bucket"
        );
        assert!(!take(&map, rate, a, t0 + Duration::from_secs(9)));
        assert!(take(&map, rate, a, t0 + Duration::from_secs(11)));
        assert!(!take(&map, rate, a, t0 + Duration::from_secs(12)));
    }

    #[test]
    fn sockets_are_capped_per_address_and_given_back() {
        let limiter = Limiter::new(Limits {
            sockets_per_address: 2,
            ..Limits::default()
        });
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let first = limiter.socket(a).unwrap();
        let _second = limiter.socket(a).unwrap();
        assert!(limiter.socket(a).is_none());
        assert!(limiter.socket("192.0.2.9".parse().unwrap()).is_some());
        drop(first);
        assert!(limiter.socket(a).is_some());
    }
}
