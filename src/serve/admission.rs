//! Who may connect: every accepted socket is counted, in all and by its
//! address, before a thread is started for it, and released when it
//! closes ([`Ticket`]'s drop). IPv6 addresses count by their /64 (one
//! household or host has a whole /64), and behind a trusted reverse
//! proxy the client's own address (`X-Real-IP`) is the one counted.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::gui::http::HttpError;

/// The counts and their limits.
pub struct Admission {
    max_total: usize,
    per_address: usize,
    trusted: Vec<IpAddr>,
    total: AtomicUsize,
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

/// One admitted socket's place in the counts; dropping it gives the
/// place back.
pub struct Ticket {
    admission: Arc<Admission>,
    counted: Vec<IpAddr>,
    client: Option<IpAddr>,
}

/// The address an IP counts as: an IPv4 address (or an IPv4-mapped IPv6
/// one) as itself, an IPv6 address as its /64.
pub fn group(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
        },
    }
}

impl Admission {
    /// Counts with these limits; `trusted` are the reverse proxies whose
    /// `X-Real-IP` is believed.
    pub fn new(max_total: usize, per_address: usize, trusted: Vec<IpAddr>) -> Admission {
        Admission {
            max_total,
            per_address,
            trusted: trusted.into_iter().map(group).collect(),
            total: AtomicUsize::new(0),
            by_address: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a socket just accepted from `peer`, or refuses it: too many
    /// in all, or from its address. A trusted proxy's own address is not
    /// limited (its clients are, once their heads are read).
    pub fn admit(self: &Arc<Self>, peer: Option<IpAddr>) -> Result<Ticket, HttpError> {
        if self.total.fetch_add(1, Ordering::SeqCst) >= self.max_total {
            self.total.fetch_sub(1, Ordering::SeqCst);
            return Err(HttpError::Busy(self.max_total));
        }
        let mut ticket = Ticket {
            admission: Arc::clone(self),
            counted: Vec::new(),
            client: peer.map(group),
        };
        if let Some(peer) = peer.map(group)
            && !self.trusted.contains(&peer)
        {
            ticket.count(peer)?;
        }
        Ok(ticket)
    }

    fn is_trusted(&self, peer: IpAddr) -> bool {
        self.trusted.contains(&group(peer))
    }
}

impl Ticket {
    /// The client behind a trusted proxy, as its `X-Real-IP` names it:
    /// counted by that address from now on.
    pub fn behind_proxy(&mut self, real_ip: Option<IpAddr>) -> Result<(), HttpError> {
        let (Some(peer), Some(real)) = (self.client, real_ip) else {
            return Ok(());
        };
        if !self.admission.is_trusted(peer) || !self.counted.is_empty() {
            return Ok(());
        }
        self.client = Some(group(real));
        self.count(group(real))
    }

    /// The address the client counts as (its group), if known.
    pub fn client(&self) -> Option<IpAddr> {
        self.client
    }

    fn count(&mut self, address: IpAddr) -> Result<(), HttpError> {
        let limit = self.admission.per_address;
        let mut counts = self
            .admission
            .by_address
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(address).or_default();
        if *count >= limit {
            return Err(HttpError::TooManyFromAddress(limit));
        }
        *count += 1;
        self.counted.push(address);
        Ok(())
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.admission.total.fetch_sub(1, Ordering::SeqCst);
        if self.counted.is_empty() {
            return;
        }
        let mut counts = self
            .admission
            .by_address
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for address in &self.counted {
            if let Some(count) = counts.get_mut(address) {
                *count -= 1;
                if *count == 0 {
                    counts.remove(address);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_counts_by_its_64_and_mapped_ipv4_as_itself() {
        assert_eq!(group(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_eq!(group(ip("::ffff:10.0.0.1")), ip("10.0.0.1"));
        assert_eq!(group(ip("10.0.0.1")), ip("10.0.0.1"));
    }

    #[test]
    fn limits_hold_and_places_come_back() {
        let admission = Arc::new(Admission::new(3, 2, vec![ip("127.0.0.1")]));
        let a = admission.admit(Some(ip("2001:db8::1"))).unwrap();
        let b = admission.admit(Some(ip("2001:db8::2"))).unwrap();
        assert!(matches!(
            admission.admit(Some(ip("2001:db8::3"))),
            Err(HttpError::TooManyFromAddress(2))
        ));
        let c = admission.admit(Some(ip("10.0.0.1"))).unwrap();
        assert!(matches!(
            admission.admit(Some(ip("10.0.0.2"))),
            Err(HttpError::Busy(3))
        ));
        drop((a, b, c));
        // Behind the trusted proxy each client counts by its own address.
        let mut tickets = Vec::new();
        for _ in 0..2 {
            let mut ticket = admission.admit(Some(ip("127.0.0.1"))).unwrap();
            ticket.behind_proxy(Some(ip("192.0.2.7"))).unwrap();
            assert_eq!(ticket.client(), Some(ip("192.0.2.7")));
            tickets.push(ticket);
        }
        let mut third = admission.admit(Some(ip("127.0.0.1"))).unwrap();
        assert!(third.behind_proxy(Some(ip("192.0.2.7"))).is_err());
        // An untrusted peer's X-Real-IP is not believed.
        drop((tickets, third));
        let mut direct = admission.admit(Some(ip("10.0.0.9"))).unwrap();
        direct.behind_proxy(Some(ip("192.0.2.7"))).unwrap();
        assert_eq!(direct.client(), Some(ip("10.0.0.9")));
    }
}
