//! Connections: the server's own accept loop over hyper, so that no
//! client can hold the server. `axum::serve` runs hyper without a timer,
//! so a connection that never finishes its headers stays open for good;
//! here every connection has a deadline for each request's headers (which
//! is also a kept-alive connection's idle time), each request a deadline
//! for its handling (its body included), and the connections of one
//! client address and of all together are capped, below the descriptors
//! the process may open minus a reserve for judging. A connection over a
//! cap is closed at once.
//!
//! Shutdown: the listener closes, the open event streams are told to end
//! (`Shutdown`), and connections get `SHUTDOWN_GRACE` to finish their
//! requests before they are dropped.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::watch;
use tower::ServiceExt;

/// How long connections may take to finish once the server stops.
pub(crate) const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);

/// Descriptors kept for judging (source files, pipes, run folders, the
/// store) beyond the connections: the connection caps stay below the
/// process's descriptor limit by this much plus `RESERVE_PER_JUDGE` per
/// judging thread.
const RESERVE: u64 = 128;
const RESERVE_PER_JUDGE: u64 = 32;

/// What a connection and a request may take.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NetLimits {
    /// A request's headers must arrive within this (and a kept-alive
    /// connection is closed after this long without a new request).
    pub(crate) header_timeout: Duration,
    /// A request is handled, its body read, within this (an event
    /// stream's response runs on: only its handler is timed).
    pub(crate) request_timeout: Duration,
    /// Open connections from one client address.
    pub(crate) per_address: usize,
    /// Open connections in all.
    pub(crate) total: usize,
    /// Open event streams (`/events`) of one viewer.
    pub(crate) streams_per_viewer: usize,
}

impl NetLimits {
    /// The defaults, with the total capped by the descriptors the process
    /// may open (`descriptors`) less the judging's reserve.
    pub(crate) fn new(
        per_address: usize,
        total: usize,
        descriptors: u64,
        judges: usize,
    ) -> NetLimits {
        let reserve = RESERVE + RESERVE_PER_JUDGE * judges as u64;
        let room = usize::try_from(descriptors.saturating_sub(reserve)).unwrap_or(usize::MAX);
        let total = total.min(room).max(1);
        NetLimits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(60),
            per_address: per_address.min(total).max(1),
            total,
            streams_per_viewer: 8,
        }
    }
}

/// Raises the soft limit on open descriptors to the hard one (a service's
/// default soft limit is often 1024, which a class's browsers reach); the
/// limit now in force.
pub(crate) fn raise_descriptor_limit() -> u64 {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.maximum != limit.current {
        let raised = Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            return limit.maximum.unwrap_or(u64::MAX);
        }
    }
    limit.current.unwrap_or(u64::MAX)
}

/// The proxies whose `X-Forwarded-For` is believed
/// (`judge serve --trusted-proxy ADDR[/BITS]`).
#[derive(Debug, Clone, Default)]
pub(crate) struct TrustedProxies {
    networks: Vec<(IpAddr, u8)>,
}

impl TrustedProxies {
    /// Reads `ADDR` or `ADDR/BITS` entries; else why not.
    pub(crate) fn parse(entries: &[String]) -> Result<TrustedProxies, String> {
        let networks =
            entries
                .iter()
                .map(|entry| {
                    let (address, bits) = entry.split_once('/').unwrap_or((entry, ""));
                    let address: IpAddr = address.trim().parse().map_err(|_| {
                        format!("--trusted-proxy `{entry}`: an address or ADDR/BITS, e.g. 10.0.0.1")
                    })?;
                    let width = if address.is_ipv4() { 32 } else { 128 };
                    let bits =
                        match bits {
                            "" => width,
                            bits => bits.parse::<u8>().ok().filter(|b| *b <= width).ok_or_else(
                                || format!("--trusted-proxy `{entry}`: at most /{width} bits"),
                            )?,
                        };
                    Ok((address, bits))
                })
                .collect::<Result<_, String>>()?;
        Ok(TrustedProxies { networks })
    }

    pub(crate) fn trusts(&self, address: IpAddr) -> bool {
        self.networks
            .iter()
            .any(|&(network, bits)| in_network(address, network, bits))
    }

    /// The client's address: `peer`, or when `peer` is a trusted proxy,
    /// the last address of `X-Forwarded-For` that is not one (a client
    /// can write any address into the header; only what the proxies
    /// appended is believed).
    pub(crate) fn client_address(&self, peer: IpAddr, headers: &axum::http::HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .collect::<Vec<_>>();
        forwarded
            .into_iter()
            .rev()
            .find(|a| !self.trusts(*a))
            .unwrap_or(peer)
    }
}

fn in_network(address: IpAddr, network: IpAddr, bits: u8) -> bool {
    let (a, n, width) = match (address, network) {
        (IpAddr::V4(a), IpAddr::V4(n)) => (u128::from(a.to_bits()), u128::from(n.to_bits()), 32),
        (IpAddr::V6(a), IpAddr::V6(n)) => (a.to_bits(), n.to_bits(), 128),
        (IpAddr::V6(a), IpAddr::V4(_)) => match a.to_ipv4_mapped() {
            Some(a) => return in_network(IpAddr::V4(a), network, bits),
            None => return false,
        },
        _ => return false,
    };
    let shift = width - u32::from(bits);
    shift >= width || (a >> shift) == (n >> shift)
}

/// Counts of open things (connections, event streams) per key, each
/// released when its `Slot` drops.
pub(crate) struct Slots<K: std::hash::Hash + Eq + Clone> {
    open: Arc<Mutex<(HashMap<K, usize>, usize)>>,
}

impl<K: std::hash::Hash + Eq + Clone> Default for Slots<K> {
    fn default() -> Slots<K> {
        Slots {
            open: Arc::new(Mutex::new((HashMap::new(), 0))),
        }
    }
}

/// One open thing; its count goes down when it drops.
pub(crate) struct Slot<K: std::hash::Hash + Eq + Clone> {
    open: Arc<Mutex<(HashMap<K, usize>, usize)>>,
    key: K,
}

impl<K: std::hash::Hash + Eq + Clone> Slots<K> {
    /// A slot for `key` if it has fewer than `per_key` and all together
    /// fewer than `total`.
    pub(crate) fn take(&self, key: K, per_key: usize, total: usize) -> Option<Slot<K>> {
        let mut guard = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (by_key, all) = &mut *guard;
        let mine = by_key.get(&key).copied().unwrap_or(0);
        if mine >= per_key || *all >= total {
            return None;
        }
        by_key.insert(key.clone(), mine + 1);
        *all += 1;
        Some(Slot {
            open: self.open.clone(),
            key,
        })
    }

    #[cfg(test)]
    fn total(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).1
    }
}

impl<K: std::hash::Hash + Eq + Clone> Drop for Slot<K> {
    fn drop(&mut self) {
        let mut guard = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (by_key, all) = &mut *guard;
        *all = all.saturating_sub(1);
        if let Some(n) = by_key.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                by_key.remove(&self.key);
            }
        }
    }
}

/// The server's stop signal: set once; event streams end on it.
#[derive(Clone)]
pub(crate) struct Shutdown {
    sender: Arc<watch::Sender<bool>>,
}

impl Default for Shutdown {
    fn default() -> Shutdown {
        Shutdown {
            sender: Arc::new(watch::channel(false).0),
        }
    }
}

impl Shutdown {
    pub(crate) fn stop(&self) {
        self.sender.send_replace(true);
    }

    pub(crate) fn is_stopped(&self) -> bool {
        *self.sender.borrow()
    }

    /// Resolves once the server stops.
    pub(crate) async fn stopped(&self) {
        let mut receiver = self.sender.subscribe();
        let _ = receiver.wait_for(|stopped| *stopped).await;
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<bool> {
        self.sender.subscribe()
    }
}

/// Serves `router` on `listener` under `limits` until `shutdown` fires;
/// trusted proxies are exempt from the per-address cap (every client
/// behind one comes from its address).
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    limits: NetLimits,
    proxies: TrustedProxies,
    shutdown: Shutdown,
) -> std::io::Result<()> {
    let connections: Slots<IpAddr> = Slots::default();
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors (or a connection reset before it
                    // was taken): wait a little rather than spin.
                    eprintln!("judge serve: accepting a connection: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = shutdown.stopped() => break,
        };
        let per_address = if proxies.trusts(peer.ip()) {
            usize::MAX
        } else {
            limits.per_address
        };
        let Some(slot) = connections.take(peer.ip(), per_address, limits.total) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let router = router.clone();
            async move { router.oneshot(request).await }
        });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let watched = graceful.watch(connection);
        tokio::spawn(async move {
            let _slot = slot;
            let _ = watched.await;
        });
    }
    drop(listener);
    shutdown.stop();
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
}

/// How long a request's handling (its body read included) may take; the
/// guard in `routes.rs` applies it.
pub(crate) async fn timed(
    limit: Duration,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => (
            axum::http::StatusCode::REQUEST_TIMEOUT,
            "the request took too long",
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forwarded_address_is_believed_only_from_a_trusted_proxy() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8".into(), "::1".into()]).unwrap();
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("x-forwarded-for", "6.6.6.6, 192.0.2.7".parse().unwrap());
        let proxy: IpAddr = "10.1.2.3".parse().unwrap();
        let stranger: IpAddr = "198.51.100.1".parse().unwrap();
        // The proxy appended the client's address last; what the client
        // wrote before it (6.6.6.6) is not believed.
        assert_eq!(
            proxies.client_address(proxy, &headers),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(proxies.client_address(stranger, &headers), stranger);
        headers.insert("x-forwarded-for", "10.9.9.9".parse().unwrap());
        assert_eq!(proxies.client_address(proxy, &headers), proxy);
        assert!(TrustedProxies::parse(&["10.0.0.0/33".into()]).is_err());
        assert!(TrustedProxies::parse(&["example.org".into()]).is_err());
    }

    #[test]
    fn slots_cap_each_key_and_the_total_and_free_on_drop() {
        let slots: Slots<u8> = Slots::default();
        let a1 = slots.take(1, 2, 3).unwrap();
        let _a2 = slots.take(1, 2, 3).unwrap();
        assert!(slots.take(1, 2, 3).is_none(), "per key");
        let _b1 = slots.take(2, 2, 3).unwrap();
        assert!(slots.take(3, 2, 3).is_none(), "in all");
        drop(a1);
        let c1 = slots.take(3, 2, 3);
        assert!(c1.is_some());
        assert_eq!(slots.total(), 3);
    }

    #[test]
    fn the_connection_caps_leave_descriptors_for_judging() {
        let limits = NetLimits::new(256, 4096, 1024, 2);
        assert_eq!(limits.total, 1024 - 128 - 64);
        assert_eq!(limits.per_address, 256);
        let tiny = NetLimits::new(256, 4096, 300, 2);
        assert_eq!(tiny.per_address, tiny.total);
    }
}
