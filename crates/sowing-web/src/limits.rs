//! Abuse limits, per client address: token buckets for creating games (live ones, and games
//! against the computer) and for seat acts (moves, offers), a cap on sockets, a rate of
//! messages per socket, and the fixed sizes and times that docs/api.md lists. Counted in this process's memory: they guard one server.

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
pub struct AbuseLimits {
    /// Off: no rate or socket limit (load tests on loopback); sizes still hold.
    pub enabled: bool,
    /// Live games created (and challenges accepted), per address.
    pub create: Rate,
    /// Games against the computer (or between people on one screen) and imported records
    /// created, per address.
    pub create_plain: Rate,
    /// Seat acts (moves, resign, offers), per address.
    pub act: Rate,
    /// Attempts to sign up, sign in or change a password, per address.
    pub sign_in: Rate,
    /// Messages a socket may send (pings), per socket.
    pub socket_messages: Rate,
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

impl Default for AbuseLimits {
    fn default() -> AbuseLimits {
        AbuseLimits {
            enabled: true,
            create: Rate {
                burst: 10,
                every: Duration::from_secs(6),
            },
            create_plain: Rate {
                burst: 60,
                every: Duration::from_millis(250),
            },
            act: Rate {
                burst: 30,
                every: Duration::from_millis(200),
            },
            sign_in: Rate {
                burst: 10,
                every: Duration::from_secs(6),
            },
            socket_messages: Rate {
                burst: 20,
                every: Duration::from_millis(250),
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

/// A token bucket: `rate.burst` tokens when full, one earned every `rate.every`.
#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn full(rate: Rate, now: Instant) -> Bucket {
        Bucket {
            tokens: f64::from(rate.burst),
            at: now,
        }
    }

    /// The tokens held at `now`.
    fn earned(&self, rate: Rate, now: Instant) -> f64 {
        let earned = now.duration_since(self.at).as_secs_f64() / rate.every.as_secs_f64();
        (self.tokens + earned).min(f64::from(rate.burst))
    }

    /// Takes a token if there is one.
    fn take(&mut self, rate: Rate, now: Instant) -> bool {
        self.tokens = self.earned(rate, now);
        self.at = now;
        let has = self.tokens >= 1.0;
        if has {
            self.tokens -= 1.0;
        }
        has
    }
}

/// The rate of one socket's messages.
pub struct MessageRate {
    rate: Option<Rate>,
    bucket: Bucket,
}

impl MessageRate {
    /// Whether the socket may send one more message now (and counts it).
    pub fn allows(&mut self) -> bool {
        self.rate
            .is_none_or(|rate| self.bucket.take(rate, Instant::now()))
    }
}

/// Keeps the counts.
pub struct Limiter {
    limits: AbuseLimits,
    create: Mutex<HashMap<IpAddr, Bucket>>,
    create_plain: Mutex<HashMap<IpAddr, Bucket>>,
    act: Mutex<HashMap<IpAddr, Bucket>>,
    sign_in: Mutex<HashMap<IpAddr, Bucket>>,
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
    if map.len() > KEPT_BUCKETS {
        map.retain(|_, b| b.earned(rate, now) < f64::from(rate.burst));
    }
    map.entry(address)
        .or_insert(Bucket::full(rate, now))
        .take(rate, now)
}

impl Limiter {
    /// Counts under `limits`.
    pub fn new(limits: AbuseLimits) -> Limiter {
        Limiter {
            limits,
            create: Mutex::default(),
            create_plain: Mutex::default(),
            act: Mutex::default(),
            sign_in: Mutex::default(),
            sockets: Arc::default(),
        }
    }

    /// The numbers.
    pub fn limits(&self) -> &AbuseLimits {
        &self.limits
    }

    /// Whether `address` may create a game now (and counts it).
    pub fn may_create(&self, address: IpAddr) -> bool {
        !self.limits.enabled || take(&self.create, self.limits.create, address, Instant::now())
    }

    /// Whether `address` may create a game against the computer, or import one, now (and
    /// counts it).
    pub fn may_create_plain(&self, address: IpAddr) -> bool {
        !self.limits.enabled
            || take(
                &self.create_plain,
                self.limits.create_plain,
                address,
                Instant::now(),
            )
    }

    /// The rate of a new socket's messages.
    pub fn message_rate(&self) -> MessageRate {
        let rate = self.limits.socket_messages;
        MessageRate {
            rate: self.limits.enabled.then_some(rate),
            bucket: Bucket::full(rate, Instant::now()),
        }
    }

    /// Whether `address` may act in a game now (and counts it).
    pub fn may_act(&self, address: IpAddr) -> bool {
        !self.limits.enabled || take(&self.act, self.limits.act, address, Instant::now())
    }

    /// Whether `address` may try to sign up, sign in or change a password now (and counts
    /// it).
    pub fn may_sign_in(&self, address: IpAddr) -> bool {
        !self.limits.enabled || take(&self.sign_in, self.limits.sign_in, address, Instant::now())
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
    fn a_socket_may_send_its_burst_then_is_held_back() {
        let limiter = Limiter::new(AbuseLimits::default());
        let mut rate = limiter.message_rate();
        let burst = AbuseLimits::default().socket_messages.burst;
        assert!((0..burst).all(|_| rate.allows()));
        assert!(!rate.allows());
        let mut unlimited = Limiter::new(AbuseLimits {
            enabled: false,
            ..AbuseLimits::default()
        })
        .message_rate();
        assert!((0..10 * burst).all(|_| unlimited.allows()));
    }

    #[test]
    fn sockets_are_capped_per_address_and_given_back() {
        let limiter = Limiter::new(AbuseLimits {
            sockets_per_address: 2,
            ..AbuseLimits::default()
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
