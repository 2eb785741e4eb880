//! The in-process search: the engine's typed facade (`engine::Engine`),
//! kept between searches in a `Searcher` and run without the GIL so other
//! Python threads go on meanwhile (one of them may stop it).
//! `pasang.search` (Python) turns its plain results into the engine
//! driver's info dictionaries.

use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use pasang::engine::{Engine, MAX_MULTIPV, MAX_THREADS};
use pasang::eval::wdl::Wdl;
use pasang::search::{Info, Limits, Listener, Score, StopHandle};

use crate::board::{Board, PyMove};

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Searcher>()?;
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

/// An engine of this process, kept between searches (its table is
/// allocated once) and stoppable from another thread: `pasang.search`
/// keeps one, and a program may hold its own.
#[pyclass(module = "pasang", name = "Searcher", frozen)]
pub(crate) struct Searcher {
    engine: Mutex<Engine>,
    /// Reaches the search running, whichever thread runs it.
    stop: StopHandle,
    hash: usize,
    threads: usize,
}

#[pymethods]
impl Searcher {
    /// An engine with a table of `hash` MiB and `threads` search threads.
    #[new]
    #[pyo3(signature = (*, hash = 16, threads = 1))]
    fn new(hash: usize, threads: usize) -> PyResult<Searcher> {
        let mut engine = Engine::new();
        engine
            .set_hash(hash)
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads must be 1 to {MAX_THREADS}, not {threads}"
            )));
        }
        engine.set_threads(threads);
        let stop = engine.stop_handle();
        Ok(Searcher {
            engine: Mutex::new(engine),
            stop,
            hash,
            threads,
        })
    }

    /// The table's size in MiB.
    #[getter]
    fn hash(&self) -> usize {
        self.hash
    }

    /// The search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Searches `board`'s position under its rules within the limits
    /// given: at least one of `depth` (plies), `nodes` and `movetime`
    /// (milliseconds). With `clear` (the default) the table is emptied
    /// first, so that one thread and a `nodes` limit give the same result
    /// every time; without it the search learns from the ones before.
    /// `skill` (0 to 20) plays at the engine's Skill Level, as the
    /// protocol's option does (a capped depth, a choice among its best
    /// lines with a random error), that error drawn from `seed` when
    /// given, so that a seeded run repeats.
    /// The GIL is released meanwhile; a search of another thread waits.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, multipv = 1, clear = true, skill = 20, seed = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: &Board,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
        multipv: usize,
        clear: bool,
        skill: u8,
        seed: Option<u64>,
    ) -> PyResult<Found> {
        if skill > 20 {
            return Err(PyValueError::new_err(format!(
                "skill is a Skill Level from 0 to 20, not {skill}"
            )));
        }
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(PyValueError::new_err(
                "a search needs a limit: time, depth or nodes",
            ));
        }
        let (rules, position) = (board.game_rules(), board.position());
        let limits = Limits {
            depth,
            nodes,
            movetime,
            ..Limits::default()
        };
        py.detach(move || {
            let mut engine = self
                .engine
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if clear {
                engine.clear_hash();
            }
            engine.set_multipv(multipv.clamp(1, MAX_MULTIPV));
            engine.set_skill_level(skill);
            engine.set_skill_seed(seed);
            engine.set_rules(rules);
            engine.set_position(position);
            Ok(search_engine(&engine, &limits))
        })
    }

    /// Stops the search running now (from any thread): it returns its best
    /// move so far at once. A stop when none runs stops nothing later.
    fn stop(&self) {
        self.stop.stop();
    }
}

/// Searches the engine's position, or reports the game's end.
fn search_engine(engine: &Engine, limits: &Limits) -> Found {
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
        return (None, None, vec![line], 0);
    }
    let lines = Lines::default();
    let result = engine.search(limits, &lines);
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
    (
        result.best_move.map(PyMove::of),
        result.ponder_move.map(PyMove::of),
        reported.iter().map(line_of).collect(),
        result.nodes,
    )
}
