//! The names and addresses a server on this machine is reached by: what
//! it prints for a person to open, and the `Host` names it lets in when
//! no `--origin` names it (DNS rebinding: a hostile name that resolves to
//! this machine must not reach its pages' sockets).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};

/// The host names a page may reach this server by when no `--origin`
/// names it: its address, `localhost` and the loopback addresses, and
/// on a wildcard bind this machine's own addresses.
pub fn own_host_names(local: SocketAddr) -> Vec<String> {
    let mut names: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()];
    let bracketed = |ip: IpAddr| match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    };
    for address in usable_addresses(local) {
        names.push(bracketed(address.ip()));
    }
    if local.ip().is_unspecified() {
        names.extend(machine_addresses().into_iter().map(bracketed));
        // The machine's own name, as a LAN's mDNS gives it too.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let host = host.trim();
        if !host.is_empty() {
            names.push(host.to_string());
            names.push(format!("{host}.local"));
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The addresses a person can open for a server listening on `local`:
/// `local` itself, or for an unspecified address the loopback first, then
/// this machine's other addresses of that family.
pub fn usable_addresses(local: SocketAddr) -> Vec<SocketAddr> {
    if !local.ip().is_unspecified() {
        return vec![local];
    }
    let v4 = local.is_ipv4();
    let loopback: IpAddr = if v4 {
        Ipv4Addr::LOCALHOST.into()
    } else {
        Ipv6Addr::LOCALHOST.into()
    };
    let mut shown = vec![SocketAddr::new(loopback, local.port())];
    for ip in machine_addresses() {
        let address = SocketAddr::new(ip, local.port());
        if ip.is_ipv4() == v4 && !ip.is_loopback() && !shown.contains(&address) {
            shown.push(address);
        }
    }
    shown
}

/// This machine's IPv4 addresses, without a crate for it: the one a
/// datagram to a documentation address would leave from (connecting a UDP
/// socket sends nothing), and on Linux the local addresses the kernel
/// lists in /proc/net/fib_trie.
fn machine_addresses() -> Vec<IpAddr> {
    let mut found = Vec::new();
    let outgoing = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| {
            socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
            socket.local_addr()
        })
        .map(|address| address.ip());
    if let Ok(ip) = outgoing
        && !ip.is_unspecified()
    {
        found.push(ip);
    }
    // "|-- 192.168.1.5" followed by "/32 host LOCAL" names a local address.
    let trie = std::fs::read_to_string("/proc/net/fib_trie").unwrap_or_default();
    let mut last: Option<IpAddr> = None;
    for line in trie.lines() {
        let line = line.trim();
        if let Some(ip) = line.strip_prefix("|-- ") {
            last = ip.parse().ok();
        } else if line.starts_with("/32 host LOCAL")
            && let Some(ip) = last
            && !found.contains(&ip)
        {
            found.push(ip);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unspecified_address_is_shown_as_usable_ones() {
        let shown = usable_addresses("0.0.0.0:8081".parse().unwrap());
        assert_eq!(shown[0], "127.0.0.1:8081".parse().unwrap());
        assert!(shown.iter().all(|a| !a.ip().is_unspecified()));
        let one = "192.168.1.5:80".parse().unwrap();
        assert_eq!(usable_addresses(one), vec![one]);
        let v6 = usable_addresses("[::]:80".parse().unwrap());
        assert_eq!(v6[0], "[::1]:80".parse().unwrap());
    }
}
