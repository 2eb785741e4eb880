//! The in-process search: the engine's typed facade (`engine::Engine`),
//! run without the GIL so other Python threads go on meanwhile.
//! `pasang.search` (Python) turns its plain results into the engine
//! driver's info dictionaries.

use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use pasang::engine::Engine;
use pasang::eval::wdl::Wdl;
use pasang::search::{Info, Limits, Listener, Score};

use crate::board::{Board, PyMove};

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(search, module)?)?;
    Ok(())
}

/// One line of a search's report: multipv, depth, seldepth, the score as
/// ("cp" | "mate", value), win/draw/loss per mille, nodes, time in
/// milliseconds and the principal variation.
type Line = (
    usize,
    u32,
    u32,
    (&'static str, i32),
    (u32, u32, u32),
    u64,
    u64,
    Vec<PyMove>,
);

/// The best move, the expected reply, the lines (best first) and the
/// nodes searched.
type Found = (Option<PyMove>, Option<PyMove>, Vec<Line>, u64);

/// Keeps the latest report of each line.
#[derive(Default)]
struct Lines(Mutex<Vec<Info>>);

impl Listener for Lines {
    fn info(&self, info: &Info) {
        let mut lines = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match lines.iter_mut().find(|line| line.multipv == info.multipv) {
            Some(line) => *line = info.clone(),
            None => lines.push(info.clone()),
        }
    }
}

fn score_of(score: Score) -> (&'static str, i32) {
    match score {
        Score::Centipoints(cp) => ("cp", cp),
        Score::Mate(moves) => ("mate", moves),
    }
}

fn line_of(info: &Info) -> Line {
    let wdl = info.score.wdl();
    (
        info.multipv,
        info.depth,
        info.seldepth,
        score_of(info.score),
        (wdl.win, wdl.draw, wdl.loss),
        info.nodes,
        info.time_ms,
        info.pv.iter().map(|mv| PyMove::of(*mv)).collect(),
    )
}

/// Searches `board`'s position under its rules with a fresh engine (a
/// table of `hash` MiB, `threads` threads), within the limits given: at
/// least one of `depth` (plies), `nodes` and `movetime` (milliseconds).
#[pyfunction]
#[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, multipv = 1, threads = 1, hash = 16))]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    board: &Board,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    multipv: usize,
    threads: usize,
    hash: usize,
) -> PyResult<Found> {
    if depth.is_none() && nodes.is_none() && movetime.is_none() {
        return Err(PyValueError::new_err(
            "a search needs a limit: time, depth or nodes",
        ));
    }
    let (rules, position) = (board.rules, board.position);
    let limits = Limits {
        depth,
        nodes,
        movetime,
        ..Limits::default()
    };
    py.detach(move || {
        let mut engine = Engine::new();
        engine
            .set_hash(hash)
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        engine.set_threads(threads);
        engine.set_multipv(multipv);
        engine.set_rules(rules);
        engine.set_position(position);
        if let Some((score, wdl)) = engine.final_score() {
            let Wdl { win, draw, loss } = wdl;
            let line = (
                1,
                0,
                0,
                score_of(score),
                (win, draw, loss),
                0,
                0,
                Vec::new(),
            );
            return Ok((None, None, vec![line], 0));
        }
        let lines = Lines::default();
        let result = engine.search(&limits, &lines);
        let mut reported = lines
            .0
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        reported.sort_by_key(|info| info.multipv);
        if let Some(last) = &result.final_info {
            match reported.first_mut() {
                Some(first) => *first = last.clone(),
                None => reported.push(last.clone()),
            }
        }
        Ok((
            result.best_move.map(PyMove::of),
            result.ponder_move.map(PyMove::of),
            reported.iter().map(line_of).collect(),
            result.nodes,
        ))
    })
}
