//! `Board`, `Move`, `LegalMoves` and `Outcome`: the rules with
//! python-chess's names, over the library's `Position`, `Rules`,
//! `movegen`, `notation`, `outcome` and `perft`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use pasang::movegen::legal_moves;
use pasang::moves::Move;
use pasang::notation::{
    MoveError, canonical_move, format_position, parse_move, parse_position, start_position,
};
use pasang::outcome::Status;
use pasang::perft::perft;
use pasang::position::{Player, Position};
use pasang::record::{Game, GameResult};
use pasang::rl::action::{self, ActionError};
use pasang::rl::planes;
use pasang::rules::{OptionSpelling, RULE_OPTIONS, Rules, RulesError, rule_option, rules_from};

use crate::learn;
use crate::{IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidRulesError};

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(rule_options, module)?)?;
    module.add_class::<PyMove>()?;
    module.add_class::<Board>()?;
    module.add_class::<LegalMoves>()?;
    module.add_class::<Outcome>()?;
    Ok(())
}

/// The rule options, from the one table that spells them
/// (`pasang::rules::RULE_OPTIONS`): for each, its `Board()` keyword (the
/// page field), its protocol name, its values and its default, in the
/// order the protocol announces them.
#[pyfunction]
fn rule_options() -> Vec<(&'static str, &'static str, Vec<&'static str>, &'static str)> {
    RULE_OPTIONS
        .iter()
        .map(|option| {
            (
                option.field,
                option.name,
                option.values.to_vec(),
                option.default,
            )
        })
        .collect()
}

/// The exception for a move the library refused, with its message.
pub(crate) fn move_error(error: MoveError) -> PyErr {
    match error {
        MoveError::Malformed { .. } => InvalidMoveError::new_err(error.to_string()),
        MoveError::Illegal { .. } => IllegalMoveError::new_err(error.to_string()),
    }
}

/// A move in the project's notation: `c` (a passage), `b4c4n` (a ka move
/// with the directions of the lines it captures). Moves compare equal when
/// their canonical texts do, so a move read from an engine's output equals
/// the same move of `Board.legal_moves`.
#[pyclass(module = "pasang", name = "Move", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyMove {
    text: String,
}

impl PyMove {
    /// Its canonical text.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn of(mv: Move) -> PyMove {
        PyMove {
            text: mv.to_string(),
        }
    }
}

#[pymethods]
impl PyMove {
    /// The move written `text` (any case; directions in any order). Checks
    /// the notation only: legality needs a board (`Board.parse_move`).
    /// Raises `InvalidMoveError` for text that is not a move.
    #[staticmethod]
    fn from_str(text: &str) -> PyResult<PyMove> {
        canonical_move(text)
            .map(|text| PyMove { text })
            .map_err(move_error)
    }

    /// `from_str` under python-chess's name.
    #[staticmethod]
    fn from_uci(text: &str) -> PyResult<PyMove> {
        PyMove::from_str(text)
    }

    /// The canonical notation, as `str(move)`.
    fn uci(&self) -> String {
        self.text.clone()
    }

    /// Whether this is a phase-1 passage (one file letter).
    #[getter]
    fn is_passage(&self) -> bool {
        self.text.len() == 1
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_str('{}')", self.text)
    }
}

/// The legal moves of a position, taken when `Board.legal_moves` was read:
/// supports `len`, `in`, iteration and indexing.
#[pyclass(module = "pasang", name = "LegalMoves", frozen, sequence)]
pub(crate) struct LegalMoves {
    moves: Vec<Move>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        match item.cast::<PyMove>() {
            Ok(mv) => self
                .moves
                .iter()
                .any(|legal| legal.to_string() == mv.get().text),
            Err(_) => false,
        }
    }

    fn __getitem__(&self, index: isize) -> PyResult<PyMove> {
        let len = self.moves.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if at < 0 || at >= len {
            return Err(PyIndexError::new_err("legal move index out of range"));
        }
        Ok(PyMove::of(self.moves[at as usize]))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = PyList::new(py, self.moves.iter().map(|mv| PyMove::of(*mv)))?;
        Ok(list.try_iter()?.into_any())
    }

    /// The number of legal moves (python-chess's `count()`).
    fn count(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        let texts: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        format!("<LegalMoves ({})>", texts.join(", "))
    }
}

/// How a finished game ended: `winner` ("south", "north", or None for a
/// draw), `termination` ("score": no stone left; "suntuk": the side to
/// move had no legal move) and `scores`, the points each side captured.
#[pyclass(module = "pasang", name = "Outcome", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    #[pyo3(get)]
    winner: Option<&'static str>,
    #[pyo3(get)]
    termination: String,
    #[pyo3(get)]
    scores: (u32, u32),
}

#[pymethods]
impl Outcome {
    /// The record's result token: "1-0" South won, "0-1" North won,
    /// "1/2-1/2" a draw.
    fn result(&self) -> &'static str {
        let winner = self.winner.map(|name| {
            if name == Player::South.name() {
                Player::South
            } else {
                Player::North
            }
        });
        // The tokens are the record's own (record::GameResult's table).
        GameResult::decided(winner).as_str()
    }

    fn __repr__(&self) -> String {
        let winner = self.winner.map_or("None".to_string(), |w| format!("'{w}'"));
        format!(
            "Outcome(winner={winner}, termination='{}', scores=({}, {}))",
            self.termination, self.scores.0, self.scores.1
        )
    }
}

/// The rules of `Board()`'s keyword arguments, each named by its
/// option's page field in [`RULE_OPTIONS`] (the one table that spells
/// them) and read by its own parser (a string, or a number for
/// `pattern`); `None` keeps an option's default.
pub(crate) fn rules_of(options: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut given = Vec::new();
    for (key, value) in options.into_iter().flat_map(|options| options.iter()) {
        let key: String = key.extract()?;
        let text: Option<String> = match value.is_none() {
            true => None,
            false => Some(value.str()?.extract()?),
        };
        given.push((key, text));
    }
    let refused = |error| match error {
        RulesError::Unknown { given, known } => PyTypeError::new_err(format!(
            "Board() got an unexpected keyword argument '{given}' (the rule options are {known})"
        )),
        RulesError::Value { source, .. } => InvalidRulesError::new_err(source.to_string()),
        missing @ RulesError::Missing(_) => InvalidRulesError::new_err(missing.to_string()),
    };
    // An unknown name is refused even when None, as Python refuses an
    // unexpected keyword argument; None keeps the option's default.
    for (key, _) in &given {
        rule_option(key, OptionSpelling::Field).map_err(refused)?;
    }
    let set = given
        .iter()
        .filter_map(|(key, text)| Some((key, text.as_ref()?)));
    rules_from(set, OptionSpelling::Field).map_err(refused)
}

/// The position string as a Python error on failure.
pub(crate) fn position_of(fen: &str) -> PyResult<Position> {
    parse_position(fen).map_err(|error| InvalidPositionError::new_err(error.to_string()))
}

/// A game board: a position, the rules it is played under and the moves
/// that led to it (`move_stack`), undone by `pop`.
///
/// `Board()` is the start of the rules' pattern; `Board(fen)` sets a
/// position string. The rule options are keyword arguments named after
/// the engine's options: `pattern` (1, 2), `ka_entry` ("slide", "jump",
/// "both"), `second_column` ("opposite", "any"), `centre` ("wall",
/// "open"). A bad value raises `InvalidRulesError`, a bad position string
/// `InvalidPositionError`.
#[pyclass(module = "pasang", name = "Board")]
#[derive(Clone)]
pub(crate) struct Board {
    /// The core's game: rules, start, the moves (the move stack) and the
    /// positions after them, as the engine, the referee and the records
    /// hold a game.
    game: Game,
}

impl Board {
    pub(crate) fn new(rules: Rules, position: Position) -> Board {
        Board {
            game: Game::new(rules, position),
        }
    }

    /// The position reached.
    pub(crate) fn position(&self) -> Position {
        self.game.current()
    }

    /// The rules it is played under.
    pub(crate) fn game_rules(&self) -> Rules {
        self.game.rules()
    }

    fn status(&self) -> Status {
        self.game.status()
    }

    /// The legal move written `text` here.
    fn parsed(&self, text: &str) -> PyResult<Move> {
        parse_move(&self.position(), &self.game_rules(), text).map_err(move_error)
    }

    /// The legal move with id `action`, as a Python error on failure.
    fn decoded(&self, action: i64) -> PyResult<Move> {
        action::decode(action, &self.position(), &self.game_rules()).map_err(|error| match error {
            ActionError::OutOfRange(_) => PyValueError::new_err(error.to_string()),
            _ => IllegalMoveError::new_err(error.to_string()),
        })
    }

    fn key(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.position().hash(&mut hasher);
        self.game_rules().hash(&mut hasher);
        hasher.finish()
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = None, **options))]
    fn py_new(fen: Option<&str>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Board> {
        let rules = rules_of(options)?;
        let position = match fen {
            Some(fen) => position_of(fen)?,
            None => start_position(rules.pattern),
        };
        Ok(Board::new(rules, position))
    }

    /// The rule options, named as `Board()`'s keyword arguments.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let rules = self.game_rules();
        for option in &RULE_OPTIONS {
            dict.set_item(option.field, option.value(&rules))?;
        }
        Ok(dict)
    }

    /// The position string, as the engine reads and prints it.
    fn fen(&self) -> String {
        format_position(&self.position())
    }

    /// Sets a position string and clears the move stack; on an error the
    /// board is unchanged.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        self.game = Game::new(self.game_rules(), position_of(fen)?);
        Ok(())
    }

    /// Back to the start of the rules' pattern, with an empty move stack.
    fn reset(&mut self) {
        let rules = self.game_rules();
        self.game = Game::new(rules, start_position(rules.pattern));
    }

    /// The side to move: "south" or "north".
    #[getter]
    fn turn(&self) -> &'static str {
        self.position().side_to_move().name()
    }

    /// The phase of the side to move: 1 (take a passage), 2 (enter the
    /// ka) or 3 (move the ka).
    #[getter]
    fn phase(&self) -> u8 {
        self.position().phase().number()
    }

    /// The points captured so far: (South's, North's).
    #[getter]
    fn scores(&self) -> (u32, u32) {
        (
            self.position().score(Player::South),
            self.position().score(Player::North),
        )
    }

    /// The moves played on this board, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.game.moves().iter().map(|mv| PyMove::of(*mv)).collect()
    }

    /// The number of moves in `move_stack`.
    fn ply(&self) -> usize {
        self.game.len()
    }

    /// The legal moves of the position (a snapshot: read it again after a
    /// move).
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves {
            moves: legal_moves(&self.position(), &self.game_rules()).to_vec(),
        }
    }

    /// The legal move written `text` (directions may be left out where only
    /// one line can be captured). Raises `InvalidMoveError` or
    /// `IllegalMoveError` with the engine's message.
    fn parse_move(&self, text: &str) -> PyResult<PyMove> {
        self.parsed(text).map(PyMove::of)
    }

    /// Whether `move` is legal here (a move written without its
    /// directions is, where it names one legal move).
    fn is_legal(&self, r#move: &PyMove) -> bool {
        self.parsed(&r#move.text).is_ok()
    }

    /// Plays `move`. An illegal move raises `IllegalMoveError` and leaves
    /// the board as it was.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let Ok(mv) = r#move.cast::<PyMove>() else {
            return Err(PyTypeError::new_err(
                "push takes a Move (use push_str for text)",
            ));
        };
        let mv = self.parsed(&mv.get().text)?;
        self.game.push(mv);
        Ok(())
    }

    /// Plays the move written `text` and returns it; a malformed or
    /// illegal move raises and leaves the board as it was.
    fn push_str(&mut self, text: &str) -> PyResult<PyMove> {
        let mv = self.parsed(text)?;
        self.game.push(mv);
        Ok(PyMove::of(mv))
    }

    /// `push_str` under python-chess's name: plays the move written
    /// `text` (the project's notation, which stands where chess has UCI)
    /// and returns it.
    fn push_uci(&mut self, text: &str) -> PyResult<PyMove> {
        self.push_str(text)
    }

    /// Takes back the last move and returns it (`IndexError` when no move
    /// was played).
    fn pop(&mut self) -> PyResult<PyMove> {
        self.game
            .pop()
            .map(PyMove::of)
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))
    }

    /// The last move played (`IndexError` when none was).
    fn peek(&self) -> PyResult<PyMove> {
        self.game
            .moves()
            .last()
            .map(|mv| PyMove::of(*mv))
            .ok_or_else(|| PyIndexError::new_err("peek at empty move stack"))
    }

    /// Whether the game is over: no stone left, or the side to move has no
    /// legal move (suntuk).
    fn is_game_over(&self) -> bool {
        self.status() != Status::InPlay
    }

    /// How the game ended, or None while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        match self.status() {
            Status::InPlay => None,
            Status::Over {
                winner,
                reason,
                scores,
            } => Some(Outcome {
                winner: winner.map(Player::name),
                termination: reason.to_string(),
                scores: (scores[0], scores[1]),
            }),
        }
    }

    /// The result token: "1-0", "0-1", "1/2-1/2", or "*" while in play.
    fn result(&self) -> &'static str {
        self.game.result().as_str()
    }

    /// The number of move paths `depth` plies deep (the engine's perft),
    /// counted without holding the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let (position, rules) = (self.position(), self.game_rules());
        py.detach(move || perft(&position, &rules, depth))
    }

    /// A copy; with `stack=False` its move stack is empty.
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> Board {
        if stack {
            self.clone()
        } else {
            Board::new(self.game_rules(), self.position())
        }
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Boards are equal when their positions and rules are (the move
    /// stacks are not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Board>().is_ok_and(|other| {
            let other = other.borrow();
            other.position() == self.position() && other.game_rules() == self.game_rules()
        })
    }

    fn __hash__(&self) -> u64 {
        self.key()
    }

    /// The board as the engine's own SVG picture (the last move marked),
    /// so a notebook draws it.
    fn _repr_svg_(&self) -> String {
        pasang::svg::render(&self.position(), self.game.last())
    }

    /// The legal moves as ids of the fixed action space
    /// (`pasang.rl.encode`), in the order of `legal_moves`.
    fn legal_actions(&self) -> Vec<usize> {
        action::legal_actions(&self.position(), &self.game_rules())
    }

    /// The action id of the legal move `move` (`IllegalMoveError` when
    /// it is not legal here).
    fn action_of(&self, r#move: &PyMove) -> PyResult<usize> {
        let mv = self.parsed(&r#move.text)?;
        action::encode(mv).map_err(|error| IllegalMoveError::new_err(error.to_string()))
    }

    /// The legal move with id `action` (`IllegalMoveError` when no legal
    /// move has it, `ValueError` for an id out of range).
    fn move_of_action(&self, action: i64) -> PyResult<PyMove> {
        self.decoded(action).map(PyMove::of)
    }

    /// Plays the legal move with id `action` and returns it; an id no
    /// legal move has raises `IllegalMoveError` and changes nothing.
    fn push_action(&mut self, action: i64) -> PyResult<PyMove> {
        let mv = self.decoded(action)?;
        self.game.push(mv);
        Ok(PyMove::of(mv))
    }

    /// The position as 5 planes of 11 x 11 bytes (white stones, black
    /// stones, South's ka, North's ka, South to move), plane, then rank 1
    /// to 11, then file a to k (`pasang.learn`'s planes).
    fn planes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &learn::planes(&self.position()))
    }

    /// The observation planes (`pasang.rl.PLANE_NAMES`), `PLANES` x 11 x
    /// 11 bytes, seen by `viewer` ("south", "north"; the side to move by
    /// default), the plies of `move_stack` as the ply.
    #[pyo3(signature = (viewer = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        viewer: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let position = self.position();
        let viewer = match viewer {
            None => position.side_to_move(),
            Some("south") => Player::South,
            Some("north") => Player::North,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "viewer '{other}' is not south or north"
                )));
            }
        };
        Ok(PyBytes::new(
            py,
            &planes::planes_seen_by(&position, &self.game_rules(), viewer),
        ))
    }

    /// For pickle and copy: `Board(start, **rules)`, then the moves.
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((String,), Bound<'py, PyDict>)> {
        Ok(((format_position(&self.game.start()),), self.rules(py)?))
    }

    fn __getstate__(&self) -> Vec<String> {
        self.game.moves().iter().map(ToString::to_string).collect()
    }

    fn __setstate__(&mut self, moves: Vec<String>) -> PyResult<()> {
        let mut game = Game::new(self.game_rules(), self.game.start());
        for text in &moves {
            game.play(text).map_err(move_error)?;
        }
        self.game = game;
        Ok(())
    }

    /// The SVG picture, as `_repr_svg_`.
    fn svg(&self) -> String {
        self._repr_svg_()
    }

    fn __repr__(&self) -> String {
        let rules = self.game_rules();
        let mut options = String::new();
        if rules != Rules::default() {
            for option in &RULE_OPTIONS {
                let value = option.value(&rules);
                // `pattern` is a number, as `Board()` takes it.
                if value.parse::<u8>().is_ok() {
                    options.push_str(&format!(", {}={value}", option.field));
                } else {
                    options.push_str(&format!(", {}='{value}'", option.field));
                }
            }
        }
        format!("Board('{}'{options})", self.fen())
    }

    /// A diagram: rank 11 at the top, one character per point as in the
    /// position string (`w` white, `b` black, `S`/`N` the kas, `+` the
    /// hole), then the side to move and the scores.
    fn __str__(&self) -> String {
        let fen = self.fen();
        let board = fen.split(' ').next().unwrap_or_default();
        let mut lines = Vec::new();
        for (row, rank) in board.split('/').enumerate() {
            let points: Vec<String> = rank.chars().map(String::from).collect();
            lines.push(format!("{:>2} {}", 11 - row, points.join(" ")));
        }
        lines.push("   a b c d e f g h i j k".to_string());
        let (south, north) = self.scores();
        lines.push(format!(
            "{} to move, South {south} - North {north}",
            self.turn()
        ));
        lines.join("\n")
    }
}
