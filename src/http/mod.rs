//! The server wing under both servers (`pasang gui`'s sessions and
//! `pasang serve`'s rooms), which import it and never each other; the
//! page it serves is the page wing's ([`crate::page`]):
//!
//! - [`hosts`]: the names and addresses a server is reached by;
//! - [`request`]: the little HTTP the page needs, the routes to the
//!   page's files and the WebSocket upgrade;
//! - [`socket`]: a page's WebSocket after the upgrade, read within the
//!   limits its server sets;
//! - [`outbound`]: a socket's bounded queue of frames and its writer.

// The routes name the page wing's files and rules pages as the request
// module's parent's (`super::assets`, `super::rules_page`).
use crate::page::{assets, rules_page};

pub mod hosts;
pub mod outbound;
pub mod request;
pub mod socket;

pub use request::{
    BadRequest, HttpError, MAX_HEAD_BYTES, Request, Route, Socket, accept_websocket, check_host,
    host_name, parse, parse_for, read_head, read_head_within, respond, respond_error,
};
