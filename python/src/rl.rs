//! The core's learning interface (`pasang::rl`) for `pasang.rl`: action
//! ids, observation planes, symmetries, and `Batch`, the games behind
//! `pasang.rl.VectorEnv`, stepped without the GIL into NumPy arrays the
//! Python side owns.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use pasang::rl::action::{self, ActionError, ActionKind};
use pasang::rl::batch::{self, Buffers};
use pasang::rl::planes;
use pasang::rl::symmetry::Symmetry;
use pasang::rl::teacher::{self, Temperature};
use pasang::search::Score;

use crate::IllegalMoveError;
use crate::board::{Board, PyMove, rules_of};

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("OBSERVATION_PLANES", planes::PLANES)?;
    module.add("PLANE_NAMES", planes::NAMES.to_vec())?;
    module.add_function(wrap_pyfunction!(encode, module)?)?;
    module.add_function(wrap_pyfunction!(decode, module)?)?;
    module.add_function(wrap_pyfunction!(describe_action, module)?)?;
    module.add_function(wrap_pyfunction!(action_triples, module)?)?;
    module.add_function(wrap_pyfunction!(symmetry_actions, module)?)?;
    module.add_function(wrap_pyfunction!(symmetry_board, module)?)?;
    module.add_function(wrap_pyfunction!(root_policy, module)?)?;
    module.add_function(wrap_pyfunction!(teach_positions, module)?)?;
    module.add_function(wrap_pyfunction!(score_value, module)?)?;
    module.add("MATE", pasang::search::MATE)?;
    module.add("MATE_BOUND", pasang::search::MATE_BOUND)?;
    module.add_class::<Batch>()?;
    Ok(())
}

fn action_error(error: ActionError) -> PyErr {
    match error {
        ActionError::Illegal { .. } => IllegalMoveError::new_err(error.to_string()),
        _ => PyValueError::new_err(error.to_string()),
    }
}

/// The id of `move` (a `Move` or its text) in the fixed action space,
/// with no board; `ValueError` for a move that is legal in no position.
#[pyfunction]
fn encode(r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
    let text: String = match r#move.cast::<PyMove>() {
        Ok(mv) => mv.get().text().to_string(),
        Err(_) => r#move
            .extract()
            .map_err(|_| PyTypeError::new_err("encode takes a Move or its text"))?,
    };
    action::encode_text(&text).map_err(action_error)
}

/// The legal move of `board` with id `action` (`IllegalMoveError` when
/// none has it, `ValueError` for an id out of range).
#[pyfunction]
fn decode(action: i64, board: &Board) -> PyResult<PyMove> {
    action::decode(action, &board.position(), &board.game_rules())
        .map(PyMove::of)
        .map_err(action_error)
}

/// The teacher's distribution (`pasang::rl::teacher`, the code of
/// `pasang datagen --policy`): `board`'s legal ids with their weights, the
/// softmax of each root move's score over `temperature` centipoints;
/// `scored` holds each MultiPV line's first move and score as
/// `(move, ("cp" | "mate", value))`.
#[pyfunction]
fn root_policy(
    board: &Board,
    scored: Vec<(Bound<'_, PyAny>, (String, i32))>,
    temperature: f64,
) -> PyResult<Vec<(usize, f64)>> {
    let temperature =
        Temperature::new(temperature).map_err(|error| PyValueError::new_err(error.to_string()))?;
    let (position, rules) = (board.position(), board.game_rules());
    let scored = scored
        .into_iter()
        .map(|(mv, (kind, value))| {
            let mv = mv
                .cast::<PyMove>()
                .map_err(|_| PyTypeError::new_err("scored moves are Move objects"))?;
            let mv = pasang::notation::parse_move(&position, &rules, mv.get().text())
                .map_err(crate::board::move_error)?;
            let score = match kind.as_str() {
                "cp" => Score::Centipoints(value),
                "mate" => Score::Mate(value),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "score kind '{kind}' is not 'cp' or 'mate'"
                    )));
                }
            };
            Ok((mv, score))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let legal = pasang::movegen::legal_moves(&position, &rules);
    let weights = teacher::policy(legal.as_slice(), &scored, temperature);
    legal
        .as_slice()
        .iter()
        .zip(weights)
        .map(|(&mv, weight)| Ok((action::encode(mv).map_err(action_error)?, weight)))
        .collect()
}

/// One position's lesson: best action, score on the search's internal
/// scale, value in [-1, 1], win/draw/loss per mille, and each legal id
/// with its weight.
type LessonRow = (i64, i32, f64, (u32, u32, u32), Vec<(usize, f64)>);

/// The teacher (`pasang::rl::teacher::teach`, the search of `pasang
/// datagen --policy`) over `boards`: one engine of `hash` MiB on one
/// thread, its table emptied before each board, `nodes` nodes each. A
/// finished game gets best action -1, its final score, no weights.
#[pyfunction]
#[pyo3(signature = (boards, nodes, temperature, hash))]
fn teach_positions(
    py: Python<'_>,
    boards: Vec<PyRef<'_, Board>>,
    nodes: u64,
    temperature: f64,
    hash: usize,
) -> PyResult<Vec<LessonRow>> {
    let temperature =
        Temperature::new(temperature).map_err(|error| PyValueError::new_err(error.to_string()))?;
    if nodes == 0 {
        return Err(PyValueError::new_err("nodes must be at least 1"));
    }
    let mut engine = pasang::engine::Engine::new();
    engine
        .set_hash(hash)
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    engine.set_threads(1);
    let positions: Vec<_> = boards
        .iter()
        .map(|board| (board.position(), board.game_rules()))
        .collect();
    let limits = pasang::search::Limits {
        nodes: Some(nodes),
        ..pasang::search::Limits::default()
    };
    py.detach(move || {
        positions
            .into_iter()
            .map(|(position, rules)| {
                match teacher::teach(&mut engine, position, rules, &limits, temperature) {
                    Some(lesson) => {
                        let weights = lesson
                            .policy
                            .iter()
                            .map(|&(mv, weight)| {
                                Ok((action::encode(mv).map_err(action_error)?, weight))
                            })
                            .collect::<PyResult<Vec<_>>>()?;
                        let best = action::encode(lesson.best).map_err(action_error)? as i64;
                        let wdl = (lesson.wdl.win, lesson.wdl.draw, lesson.wdl.loss);
                        Ok((
                            best,
                            lesson.score.to_internal(),
                            lesson.value(),
                            wdl,
                            weights,
                        ))
                    }
                    None => {
                        // The game is over: its score as the engine gives it.
                        engine.set_rules(rules);
                        engine.set_position(position);
                        let (score, wdl) = engine
                            .final_score()
                            .unwrap_or((Score::Centipoints(0), pasang::eval::wdl::Wdl::DRAWN));
                        let value = teacher::value_of(score);
                        Ok((
                            -1,
                            score.to_internal(),
                            value,
                            (wdl.win, wdl.draw, wdl.loss),
                            Vec::new(),
                        ))
                    }
                }
            })
            .collect()
    })
}

/// The value target in [-1, 1] of a score on the search's internal scale
/// (`teach()`'s `scores`, `read_datagen`'s): +1 or -1 at a mate, else the
/// engine's WDL model's win minus loss (`pasang::rl::teacher::value_of`).
#[pyfunction]
fn score_value(score: i32) -> f64 {
    teacher::value_of(Score::from_internal(score))
}

/// What `action` stands for, in the move notation, with no board.
#[pyfunction]
fn describe_action(action: i64) -> PyResult<String> {
    action::describe(action).map_err(action_error)
}

/// Every id's (origin index, landing index, direction flags), passages as
/// (-1, file, 0): the whole table, for code in other languages.
#[pyfunction]
fn action_triples() -> Vec<(i32, i32, u8)> {
    (0..action::ACTIONS as i64)
        .map(|id| match action::kind(id).expect("an id in range") {
            ActionKind::Passage(file) => (-1, file as i32, 0),
            ActionKind::Ka {
                from,
                to,
                directions,
            } => (from.index() as i32, to.index() as i32, directions),
        })
        .collect()
}

fn symmetry_named(name: &str) -> PyResult<Symmetry> {
    Ok(match name {
        "identity" => Symmetry::Identity,
        "mirror" => Symmetry::Mirror,
        "half_turn" => Symmetry::HalfTurn,
        "flip" => Symmetry::Flip,
        _ => {
            return Err(PyValueError::new_err(format!(
                "symmetry '{name}' is not identity, mirror, half_turn or flip"
            )));
        }
    })
}

/// The map of symmetry `name` on action ids: entry i is the image of id i.
#[pyfunction]
fn symmetry_actions(name: &str) -> PyResult<Vec<usize>> {
    let symmetry = symmetry_named(name)?;
    Ok((0..action::ACTIONS).map(|id| symmetry.action(id)).collect())
}

/// `board`'s position under symmetry `name`, as a new board with the
/// same rules and no move stack (`ValueError` where the image is no
/// position of a game: a half-turn before both kas are in).
#[pyfunction]
fn symmetry_board(name: &str, board: &Board) -> PyResult<Board> {
    let symmetry = symmetry_named(name)?;
    let image = symmetry
        .position(&board.position())
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(Board::new(board.game_rules(), image))
}

/// A NumPy array's memory, checked for a step to write.
#[derive(Clone, Copy)]
struct Raw {
    address: usize,
    bytes: usize,
}

/// The memory of `array`: a writable, C-contiguous NumPy array of
/// `typestr` elements, `count` of them.
fn raw(array: &Bound<'_, PyAny>, what: &str, typestr: &str, count: usize) -> PyResult<Raw> {
    let bad = |why: &str| PyValueError::new_err(format!("{what}: {why}"));
    let interface = array
        .getattr("__array_interface__")
        .map_err(|_| bad("not a NumPy array"))?;
    let interface = interface
        .cast::<PyDict>()
        .map_err(|_| bad("not a NumPy array"))?;
    let field = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        interface
            .get_item(key)?
            .ok_or_else(|| bad("not a NumPy array"))
    };
    let kind: String = field("typestr")?.extract()?;
    if kind != typestr {
        return Err(bad(&format!("dtype '{kind}', expected '{typestr}'")));
    }
    if !field("strides")?.is_none() {
        return Err(bad("not C-contiguous"));
    }
    let shape = field("shape")?;
    let shape = shape.cast::<PyTuple>().map_err(|_| bad("no shape"))?;
    let mut elements = 1usize;
    for size in shape.iter() {
        elements = elements.saturating_mul(size.extract::<usize>()?);
    }
    if elements != count {
        return Err(bad(&format!("{elements} elements, expected {count}")));
    }
    let (address, readonly): (usize, bool) = field("data")?.extract()?;
    if readonly {
        return Err(bad("read-only"));
    }
    let size = match typestr {
        "<f4" => 4,
        "<i8" => 8,
        _ => 1,
    };
    if count > 0 && (address == 0 || address % size != 0) {
        return Err(bad("not aligned"));
    }
    Ok(Raw {
        address,
        bytes: count * size,
    })
}

/// Refuses buffers that share memory (a step writes them at once).
fn disjoint(raws: &[Raw]) -> PyResult<()> {
    let mut spans: Vec<(usize, usize)> = raws
        .iter()
        .filter(|raw| raw.bytes > 0)
        .map(|raw| (raw.address, raw.address + raw.bytes))
        .collect();
    spans.sort_unstable();
    if spans.windows(2).any(|pair| pair[0].1 > pair[1].0) {
        return Err(PyValueError::new_err("the arrays must not share memory"));
    }
    Ok(())
}

/// Games stepped together (`pasang::rl::batch`): the engine of
/// `pasang.rl.VectorEnv`, which owns the arrays it writes.
#[pyclass(module = "pasang", name = "Batch")]
pub(crate) struct Batch {
    batch: batch::Batch,
}

/// The five output arrays' memory.
struct Outputs([Raw; 5]);

impl Outputs {
    fn of(games: usize, arrays: [&Bound<'_, PyAny>; 5]) -> PyResult<Outputs> {
        let [observations, masks, rewards, terminations, to_play] = arrays;
        let raws = [
            raw(observations, "observations", "|u1", games * planes::LEN)?,
            raw(masks, "masks", "|b1", games * action::ACTIONS)?,
            raw(rewards, "rewards", "<f4", games)?,
            raw(terminations, "terminations", "|b1", games)?,
            raw(to_play, "to_play", "|u1", games)?,
        ];
        disjoint(&raws)?;
        Ok(Outputs(raws))
    }

    /// The buffers over the arrays.
    ///
    /// # Safety
    ///
    /// The arrays checked by [`Outputs::of`] are alive and not otherwise
    /// accessed while the buffers are used.
    unsafe fn buffers(&self) -> Buffers<'_> {
        let [observations, masks, rewards, terminations, to_play] = self.0;
        // SAFETY: each span is a live, writable, aligned NumPy buffer of
        // that many elements, the spans are disjoint, and the caller keeps
        // the arrays alive and untouched meanwhile (NumPy's bool is one
        // byte holding 0 or 1, which the batch writes).
        unsafe {
            Buffers {
                observations: std::slice::from_raw_parts_mut(
                    observations.address as *mut u8,
                    observations.bytes,
                ),
                masks: std::slice::from_raw_parts_mut(masks.address as *mut u8, masks.bytes),
                rewards: std::slice::from_raw_parts_mut(
                    rewards.address as *mut f32,
                    rewards.bytes / 4,
                ),
                terminations: std::slice::from_raw_parts_mut(
                    terminations.address as *mut u8,
                    terminations.bytes,
                ),
                to_play: std::slice::from_raw_parts_mut(to_play.address as *mut u8, to_play.bytes),
            }
        }
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (games, seed = 0, **rules))]
    fn new(games: usize, seed: u64, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Batch> {
        if games == 0 {
            return Err(PyValueError::new_err("a batch needs at least one game"));
        }
        Ok(Batch {
            batch: batch::Batch::new(games, rules_of(rules)?, seed),
        })
    }

    /// Every game to its start (reseeded when `seed` is given), written
    /// into the arrays (observations uint8, masks bool, rewards float32,
    /// terminations bool, to_play uint8).
    #[pyo3(signature = (seed, observations, masks, rewards, terminations, to_play))]
    #[allow(clippy::too_many_arguments)]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminations: &Bound<'_, PyAny>,
        to_play: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let outputs = Outputs::of(
            self.batch.len(),
            [observations, masks, rewards, terminations, to_play],
        )?;
        let batch = &mut self.batch;
        // SAFETY: the arrays are borrowed for this call; the Python side
        // does not touch them while it waits.
        py.detach(|| batch.reset(seed, unsafe { outputs.buffers() }))
            .map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// The games where `which` is true to their start (reseeded from
    /// `seed` when given), their rows rewritten into the arrays, the
    /// others left as they are; the masks must be the arrays the last
    /// call wrote.
    #[pyo3(signature = (which, seed, observations, masks, rewards, terminations, to_play))]
    #[allow(clippy::too_many_arguments)]
    fn reset_games(
        &mut self,
        py: Python<'_>,
        which: Vec<bool>,
        seed: Option<u64>,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminations: &Bound<'_, PyAny>,
        to_play: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let outputs = Outputs::of(
            self.batch.len(),
            [observations, masks, rewards, terminations, to_play],
        )?;
        let batch = &mut self.batch;
        // SAFETY: as in `reset`.
        py.detach(|| batch.reset_games(&which, seed, unsafe { outputs.buffers() }))
            .map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// The games' whole state as text (positions, plies, random streams),
    /// for pickling: `restore` takes it back.
    fn state(&self) -> String {
        self.batch.state()
    }

    /// Takes back a `state()` of a batch of the same rules and size and
    /// writes every game's row into the arrays (rewards and terminations
    /// zero).
    #[allow(clippy::too_many_arguments)]
    fn restore(
        &mut self,
        py: Python<'_>,
        state: &str,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminations: &Bound<'_, PyAny>,
        to_play: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let outputs = Outputs::of(
            self.batch.len(),
            [observations, masks, rewards, terminations, to_play],
        )?;
        let batch = &mut self.batch;
        // SAFETY: as in `reset`.
        py.detach(|| batch.restore(state, unsafe { outputs.buffers() }))
            .map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// Plays `actions` (int64, one per game) and writes what follows, as
    /// `reset`; the masks must be the arrays the last call wrote.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminations: &Bound<'_, PyAny>,
        to_play: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let games = self.batch.len();
        let outputs = Outputs::of(games, [observations, masks, rewards, terminations, to_play])?;
        let chosen = raw(actions, "actions", "<i8", games)?;
        // SAFETY: a checked, aligned int64 array of `games` elements, read
        // only, alive for the call.
        let chosen: Vec<i64> =
            unsafe { std::slice::from_raw_parts(chosen.address as *const i64, games).to_vec() };
        let batch = &mut self.batch;
        // SAFETY: as in `reset`.
        py.detach(|| batch.step(&chosen, unsafe { outputs.buffers() }))
            .map_err(|error| match error {
                batch::BatchError::Illegal { .. } => IllegalMoveError::new_err(error.to_string()),
                _ => PyValueError::new_err(error.to_string()),
            })
    }

    /// A random legal action of each game, from the games' own seeded
    /// streams, into `actions` (int64).
    fn sample(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let games = self.batch.len();
        let out = raw(actions, "actions", "<i8", games)?;
        // SAFETY: a checked, writable, aligned int64 array of `games`
        // elements, alive for the call.
        let out = unsafe { std::slice::from_raw_parts_mut(out.address as *mut i64, games) };
        self.batch
            .sample(out)
            .map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// Game `index`'s position as a board (its rules, no move stack).
    fn board(&self, index: usize) -> PyResult<Board> {
        let (position, _) = self
            .batch
            .game(index)
            .ok_or_else(|| PyValueError::new_err(format!("no game {index}")))?;
        Ok(Board::new(self.batch.rules(), position))
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }
}
