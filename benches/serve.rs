//! The load benchmark of `pasang serve` (not a test: it measures): 300
//! rooms in play at once over loopback, simulated players thinking 0 to
//! 50 ms a move, and the time from sending a move to the mover's new
//! state, at the 50th, 90th and 99th percentiles.
//!
//!     cargo bench --bench serve
//!
//! Every client talks to 127.0.0.1 only; the run ends by itself (three games
//! a room, or the deadline).

#[path = "../tests/common/rooms.rs"]
mod rooms;

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

const ROOMS: usize = 300;

fn main() {
    let data = std::env::temp_dir().join(format!("pasang-serve-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let address = format!("127.0.0.1:{port}");
    let mut server = Command::new(env!("CARGO_BIN_EXE_pasang"))
        .args([
            "serve",
            "--listen",
            &address,
            "--max-per-address",
            "2000",
            "--data",
        ])
        .arg(&data)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("pasang serve starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(&address).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server listens"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let settings = Arc::new(rooms::Settings {
        address,
        games: 3,
        think_ms: 50,
        disconnect_per_mille: 0,
        deadline: Instant::now() + Duration::from_secs(300),
    });
    let finished = Arc::new(AtomicUsize::new(0));
    let began = Instant::now();
    let threads: Vec<_> = (0..ROOMS)
        .map(|room| {
            let settings = Arc::clone(&settings);
            let finished = Arc::clone(&finished);
            std::thread::spawn(move || rooms::play_room(&settings, room as u64 + 1, &finished))
        })
        .collect();
    let outcomes: Vec<rooms::RoomOutcome> =
        threads.into_iter().map(|t| t.join().unwrap()).collect();
    let seconds = began.elapsed().as_secs_f64();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&data);
    let mut latencies: Vec<Duration> = outcomes
        .iter()
        .flat_map(|o| o.latencies.iter().copied())
        .collect();
    latencies.sort();
    let games: usize = outcomes.iter().map(|o| o.games.len()).sum();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    println!(
        "pasang serve: {ROOMS} rooms at once, {games} games, {} moves in {seconds:.1} s ({:.0} moves/s)",
        latencies.len(),
        latencies.len() as f64 / seconds
    );
    println!(
        "move answered: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        at(0.5).as_secs_f64() * 1000.0,
        at(0.9).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        latencies.last().unwrap().as_secs_f64() * 1000.0
    );
}
