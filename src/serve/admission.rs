//! Who may connect: every accepted socket is counted, in all and by its
//! address, before a thread is started for it, and released when it
//! closes ([`Ticket`]'s drop). An address may hold `per_address` room
//! sockets, and [`HEAD_SLACK`] sockets more for a page's files and heads
//! in progress (a page loads several files at once). IPv6 addresses
//! count by their /64 (one household or host has a whole /64), and
//! behind a trusted reverse proxy the client's own address (`X-Real-IP`)
//! is the one counted. A proxy is trusted by its exact address, never by
//! its /64: a neighbour in the proxy's network is no proxy.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::http::HttpError;

/// Sockets an address may hold beyond its room sockets: a page's files
/// load a few at a time, and a head takes at most 10 s to arrive.
pub const HEAD_SLACK: usize = 16;

/// What a place in the counts is for.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Place {
    /// Any socket, from its accept.
    Socket,
    /// A room's WebSocket, from its upgrade.
    Room,
}

/// The counts and their limits.
pub struct Admission {
    max_total: usize,
    per_address: usize,
    trusted: Vec<IpAddr>,
    total: AtomicUsize,
    /// Sockets and room sockets by address.
    by_address: Mutex<HashMap<IpAddr, [usize; 2]>>,
}

/// One admitted socket's place in the counts; dropping it gives the
/// place back.
pub struct Ticket {
    admission: Arc<Admission>,
    counted: Vec<(IpAddr, Place)>,
    client: Option<IpAddr>,
    /// The peer's exact address (the proxy's, behind one).
    peer: Option<IpAddr>,
}

/// An address as itself, an IPv4-mapped IPv6 one as its IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
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
            trusted: trusted.into_iter().map(canonical).collect(),
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
            peer: None,
        };
        if let Some(peer) = peer
            && !self.is_trusted(peer)
        {
            ticket.count(group(peer), Place::Socket)?;
        }
        ticket.peer = peer;
        Ok(ticket)
    }

    /// Sockets open now, of every kind.
    pub fn connections(&self) -> usize {
        self.total.load(Ordering::SeqCst)
    }

    /// Why a room socket from the client of `ticket` would be refused
    /// now (`busy`, `address`), if it would: the ticket's own place is
    /// not counted against it.
    pub fn would_refuse(&self, ticket: &Ticket) -> Option<&'static str> {
        if self.total.load(Ordering::SeqCst).saturating_sub(1) >= self.max_total {
            return Some("busy");
        }
        let client = ticket.client?;
        let counts = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let rooms = counts.get(&client).map_or(0, |count| count[1]);
        (rooms >= self.per_address).then_some("address")
    }

    fn is_trusted(&self, peer: IpAddr) -> bool {
        self.trusted.contains(&canonical(peer))
    }
}

impl Ticket {
    /// The socket becomes a room's: counted against its client's room
    /// sockets (behind a trusted proxy, the client its `X-Real-IP`
    /// names), or refused.
    pub fn upgrade(&mut self, real_ip: Option<IpAddr>) -> Result<(), HttpError> {
        if let (Some(peer), Some(real)) = (self.peer, real_ip)
            && self.admission.is_trusted(peer)
        {
            self.client = Some(group(real));
        }
        match self.client {
            Some(client) => self.count(client, Place::Room),
            None => Ok(()),
        }
    }

    /// The address the client counts as (its group), if known.
    pub fn client(&self) -> Option<IpAddr> {
        self.client
    }

    fn count(&mut self, address: IpAddr, place: Place) -> Result<(), HttpError> {
        let per_address = self.admission.per_address;
        let (index, limit) = match place {
            Place::Socket => (0, per_address + HEAD_SLACK),
            Place::Room => (1, per_address),
        };
        let mut counts = self
            .admission
            .by_address
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(address).or_default();
        if count[index] >= limit {
            return Err(HttpError::TooManyFromAddress(per_address));
        }
        count[index] += 1;
        self.counted.push((address, place));
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
        for (address, place) in &self.counted {
            if let Some(count) = counts.get_mut(address) {
                count[usize::from(*place == Place::Room)] -= 1;
                if *count == [0, 0] {
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
        let admission = Arc::new(Admission::new(40, 2, vec![ip("127.0.0.1")]));
        // Sockets: the room sockets allowed and the slack; room sockets:
        // the limit.
        let mut held: Vec<Ticket> = (0..2 + HEAD_SLACK)
            .map(|i| {
                admission
                    .admit(Some(ip(&format!("2001:db8::{i}"))))
                    .unwrap()
            })
            .collect();
        assert!(matches!(
            admission.admit(Some(ip("2001:db8::99"))),
            Err(HttpError::TooManyFromAddress(2))
        ));
        held[0].upgrade(None).unwrap();
        held[1].upgrade(None).unwrap();
        assert_eq!(admission.would_refuse(&held[2]), Some("address"));
        assert!(held[2].upgrade(None).is_err());
        drop(held);
        let busy = Arc::new(Admission::new(1, 2, Vec::new()));
        let only = busy.admit(Some(ip("10.0.0.1"))).unwrap();
        assert!(matches!(
            busy.admit(Some(ip("10.0.0.2"))),
            Err(HttpError::Busy(1))
        ));
        drop(only);
        // Behind the trusted proxy each client counts by its own address.
        let mut tickets = Vec::new();
        for _ in 0..2 {
            let mut ticket = admission.admit(Some(ip("127.0.0.1"))).unwrap();
            ticket.upgrade(Some(ip("192.0.2.7"))).unwrap();
            assert_eq!(ticket.client(), Some(ip("192.0.2.7")));
            tickets.push(ticket);
        }
        let mut third = admission.admit(Some(ip("127.0.0.1"))).unwrap();
        assert!(third.upgrade(Some(ip("192.0.2.7"))).is_err());
        // An untrusted peer's X-Real-IP is not believed.
        drop((tickets, third));
        let mut direct = admission.admit(Some(ip("10.0.0.9"))).unwrap();
        direct.upgrade(Some(ip("192.0.2.7"))).unwrap();
        assert_eq!(direct.client(), Some(ip("10.0.0.9")));
    }

    #[test]
    fn an_ipv6_proxy_is_trusted_by_its_exact_address_not_its_64() {
        let admission = Arc::new(Admission::new(40, 2, vec![ip("2001:db8::1")]));
        let mut proxied = admission.admit(Some(ip("2001:db8::1"))).unwrap();
        proxied.upgrade(Some(ip("192.0.2.7"))).unwrap();
        assert_eq!(proxied.client(), Some(ip("192.0.2.7")));
        // A neighbour in the proxy's /64 forging the header is itself.
        let mut neighbour = admission.admit(Some(ip("2001:db8::2"))).unwrap();
        neighbour.upgrade(Some(ip("192.0.2.8"))).unwrap();
        assert_eq!(neighbour.client(), Some(ip("2001:db8::")));
    }
}
