//! What `pasang serve` counts for its admin: rooms, connections, moves,
//! games, refusals and the time a journal sync and a move take, in the
//! OpenMetrics text that Prometheus scrapes from `--admin-listen`'s
//! `/metrics` (written by the `prometheus-client` crate).
//!
//! Counters and histograms are atomics the rooms' threads bump; the
//! gauges are read off the rooms and the admission counts when scraped.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// A label `kind` (a connection's, a refusal's).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: String,
}

/// A label `end`: how a game ended, as records' `Termination` values
/// in snake_case (docs/records.md).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EndLabel {
    end: String,
}

/// The kinds of connection `pasang_connections` counts.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct ConnectionCounts {
    /// Sockets seated in a room.
    pub players: i64,
    /// Sockets watching a room.
    pub spectators: i64,
    /// Every other accepted socket: HTTP requests, and room sockets not
    /// (yet) in a room.
    pub before_upgrade: i64,
}

/// The server's metrics.
pub struct Metrics {
    registry: Registry,
    rooms_open: Gauge,
    connections: Family<KindLabel, Gauge>,
    rooms_created: Counter,
    moves: Counter,
    games_finished: Family<EndLabel, Counter>,
    refusals: Family<KindLabel, Counter>,
    journal_sync: Histogram,
    move_seconds: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Every metric at zero, registered under its name.
    pub fn new() -> Metrics {
        let mut registry = Registry::default();
        let rooms_open = Gauge::default();
        registry.register("pasang_rooms_open", "Rooms open", rooms_open.clone());
        let connections = Family::<KindLabel, Gauge>::default();
        registry.register(
            "pasang_connections",
            "Connections open, by kind (player, spectator, before_upgrade)",
            connections.clone(),
        );
        let rooms_created = Counter::default();
        registry.register(
            "pasang_rooms_created",
            "Rooms made since the server started",
            rooms_created.clone(),
        );
        let moves = Counter::default();
        registry.register(
            "pasang_moves",
            "Moves accepted (on disk and sent) since the server started",
            moves.clone(),
        );
        let games_finished = Family::<EndLabel, Counter>::default();
        registry.register(
            "pasang_games_finished",
            "Games ended since the server started, by how they ended",
            games_finished.clone(),
        );
        let refusals = Family::<KindLabel, Counter>::default();
        registry.register(
            "pasang_refusals",
            "Requests and connections refused, by the refusal's kind",
            refusals.clone(),
        );
        // 100 us to about 3 s: a sync on a good disk takes a millisecond
        // or less, a slow one tens.
        let journal_sync = Histogram::new(exponential_buckets(0.0001, 2.0, 16));
        registry.register(
            "pasang_journal_sync_seconds",
            "Time of one journal write and sync (a batch of lines)",
            journal_sync.clone(),
        );
        let move_seconds = Histogram::new(exponential_buckets(0.0001, 2.0, 16));
        registry.register(
            "pasang_move_seconds",
            "Time from a move read to its state queued to every member of the room",
            move_seconds.clone(),
        );
        Metrics {
            registry,
            rooms_open,
            connections,
            rooms_created,
            moves,
            games_finished,
            refusals,
            journal_sync,
            move_seconds,
        }
    }

    /// A room was made.
    pub fn room_created(&self) {
        self.rooms_created.inc();
    }

    /// A move was accepted, `took` after it was read.
    pub fn move_accepted(&self, took: Duration) {
        self.moves.inc();
        self.move_seconds.observe(took.as_secs_f64());
    }

    /// A game ended as `end` (a `Termination` value).
    pub fn game_finished(&self, end: crate::record::Termination) {
        let end = end.to_string().replace(' ', "_");
        self.games_finished.get_or_create(&EndLabel { end }).inc();
    }

    /// A request or a connection was refused as `kind`.
    pub fn refused(&self, kind: &str) {
        self.refusals
            .get_or_create(&KindLabel {
                kind: kind.to_string(),
            })
            .inc();
    }

    /// The histogram the journal's writer times its syncs into.
    pub fn journal_sync(&self) -> Histogram {
        self.journal_sync.clone()
    }

    /// The metrics as OpenMetrics text, with the gauges as given.
    pub fn encode(&self, rooms_open: usize, connections: ConnectionCounts) -> String {
        self.rooms_open.set(rooms_open as i64);
        for (kind, count) in [
            ("player", connections.players),
            ("spectator", connections.spectators),
            ("before_upgrade", connections.before_upgrade),
        ] {
            self.connections
                .get_or_create(&KindLabel {
                    kind: kind.to_string(),
                })
                .set(count);
        }
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_every_metric_the_admin_reads() {
        let metrics = Metrics::new();
        metrics.room_created();
        metrics.move_accepted(Duration::from_millis(3));
        metrics.game_finished(crate::record::Termination::TimeForfeit);
        metrics.refused("too_fast");
        metrics.journal_sync().observe(0.002);
        let counts = ConnectionCounts {
            players: 2,
            spectators: 1,
            before_upgrade: 0,
        };
        let text = metrics.encode(1, counts);
        for line in [
            "pasang_rooms_open 1",
            "pasang_connections{kind=\"player\"} 2",
            "pasang_connections{kind=\"spectator\"} 1",
            "pasang_connections{kind=\"before_upgrade\"} 0",
            "pasang_rooms_created_total 1",
            "pasang_moves_total 1",
            "pasang_games_finished_total{end=\"time_forfeit\"} 1",
            "pasang_refusals_total{kind=\"too_fast\"} 1",
            "pasang_journal_sync_seconds_count 1",
            "pasang_move_seconds_count 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        assert!(text.ends_with("# EOF\n"));
    }
}
