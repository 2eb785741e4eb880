//! The admin's address (`--admin-listen`, off by default), apart from the
//! players' port so that a proxy in front of the players never exposes
//! it: `GET /healthz` (200 `ok` while moves are taken, else 503 and why),
//! `GET /metrics` (OpenMetrics text for Prometheus, [`super::metrics`])
//! and `GET /rooms` (the open rooms as JSON, by their short ids: a room's
//! code is its key and never shown).
//!
//! One thread answers one request at a time: a scraper and an admin's
//! curl are its only clients.

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use super::live::Shared;
use crate::http;

/// Time a client gets to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves the admin's address on its own thread.
pub fn start(listener: TcpListener, shared: Arc<Shared>) {
    let _ = std::thread::Builder::new()
        .name("admin".into())
        .spawn(move || {
            for stream in listener.incoming().flatten() {
                if let Err(error) = answer(stream, &shared) {
                    log::debug!("admin request ended: {error}");
                }
            }
        });
}

fn answer(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let _ = stream.set_write_timeout(Some(HEAD_TIMEOUT));
    let Ok(head) = http::read_head_within(&mut stream, HEAD_TIMEOUT) else {
        return Ok(());
    };
    let (method, path) = request_line(&head);
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        let body = "only GET and HEAD\n";
        return http::respond(&mut stream, (405, "Method Not Allowed"), TEXT, body, false);
    }
    match path {
        "/healthz" => match shared.health() {
            Ok(()) => http::respond(&mut stream, (200, "OK"), TEXT, "ok\n", head_only),
            Err(why) => http::respond(
                &mut stream,
                (503, "Service Unavailable"),
                TEXT,
                &format!("{why}\n"),
                head_only,
            ),
        },
        "/metrics" => http::respond(
            &mut stream,
            (200, "OK"),
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
            &shared.metrics_text(),
            head_only,
        ),
        "/rooms" => {
            let body = serde_json::to_string_pretty(&shared.room_summaries()).unwrap_or_default();
            http::respond(
                &mut stream,
                (200, "OK"),
                "application/json; charset=utf-8",
                &(body + "\n"),
                head_only,
            )
        }
        _ => http::respond(
            &mut stream,
            (404, "Not Found"),
            TEXT,
            "the admin address answers /healthz, /metrics and /rooms\n",
            false,
        ),
    }
}

const TEXT: &str = "text/plain; charset=utf-8";

/// The method and the path (without its query) of a request head.
fn request_line(head: &[u8]) -> (&str, &str) {
    let line = head
        .split(|&b| b == b'\r' || b == b'\n')
        .next()
        .unwrap_or(&[]);
    let line = std::str::from_utf8(line).unwrap_or("");
    let mut parts = line.split(' ');
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    (method, target.split(['?', '#']).next().unwrap_or("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_line_gives_the_method_and_the_path() {
        assert_eq!(
            request_line(b"GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n"),
            ("GET", "/metrics")
        );
        assert_eq!(request_line(b""), ("", "/"));
    }
}
