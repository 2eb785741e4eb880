//! Puzzles found in games, the way lichess-puzzler finds them: after a
//! move that threw away its mover's chances, the other side has one move
//! that keeps the win (or saves the lost game), then its best reply, and
//! so on while exactly one move keeps the result (docs/learn.md gives the
//! criteria and the margins). Each puzzle found must then stand a much
//! deeper search of its first move ([`Generator::check`], the contract of
//! docs/learn.md): where that search finds a second forced win, every
//! other first move proven to win is listed in `alternatives` (at most
//! [`MAX_ALTERNATIVES`]); any other failure drops the puzzle.
//!
//! Every game is handled afresh (a cleared table), on one thread at fixed
//! node counts, so a game's puzzles depend only on the game and the node
//! count: the same input gives the same file, and `--shard K/N` the
//! puzzles of the games whose index i (from 0, over all files in order)
//! has i mod N = K - 1.

use std::sync::Mutex;

use crate::engine::Engine;
use crate::moves::Move;
use crate::notation::{format_position, parse_position};
use crate::outcome::{Reason, Status};
use crate::position::{Phase, Player, Position};
use crate::record::Game;
use crate::review::Evaluation;
use crate::rules::Rules;
use crate::search::{Info, Limits, Listener, Score, Silent};

use super::format::{MAX_SOLVER_MOVES, Puzzle, options_of};

/// The default nodes of each solver's search (`--nodes`).
pub const DEFAULT_NODES: u64 = 200_000;
/// The scan of a game's positions searches this fraction of `--nodes`.
pub const SCAN_DIVISOR: u64 = 8;
/// A mistake lowers its mover's win chance (W + D/2, per mille) by this
/// much at least.
pub const MISTAKE_DROP: u32 = 300;
/// The solver's win chance after the mistake, for a puzzle to win.
pub const WINNING: u32 = 750;
/// For a puzzle to save a lost game: the solver's chance before the
/// mistake was at most this ...
pub const LOST: u32 = 250;
/// ... and after it at least this.
pub const SAVED: u32 = 450;
/// At each solver turn the best move's win chance is at least this much
/// above the second best's (per mille).
pub const MARGIN: u32 = 250;
/// A capture of at least this many stones is a `big-capture`.
pub const BIG_CAPTURE_STONES: u32 = 3;
/// With at most this many stones, a solver's turn is first proven by the
/// endgame solve: its best move a forced win and every other move not.
pub const PROOF_STONES: u32 = 24;
/// Each search of a proof gets this fraction of `--nodes`.
pub const PROOF_DIVISOR: u64 = 4;
/// A quiet move leaves the opponent at most this many moves
/// (`even-runs`).
pub const SQUEEZE_MOVES: usize = 2;
/// A position with at most this many stones is an endgame.
pub const ENDGAME_STONES: u32 = 40;
/// The deeper check's nodes (`--check-nodes`): each puzzle's first move
/// must stand a MultiPV 2 search of this many nodes (docs/learn.md).
pub const CHECK_NODES: u64 = 3_000_000;
/// In the deeper check, a first move that is not a proven win must lead
/// the second line's win chance by this much (per mille).
pub const CHECK_MARGIN: u32 = 200;
/// Where the deeper check finds two forced wins, each other first move is
/// searched for a proof with this fraction of the check's nodes.
pub const ALTERNATIVE_DIVISOR: u64 = 10;
/// A puzzle keeps at most this many `alternatives`: where more first
/// moves win, finding one asks too little, and the puzzle is dropped.
pub const MAX_ALTERNATIVES: usize = 2;

/// How many positions each filter kept.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Counts {
    /// Games read (of this shard).
    pub games: u64,
    /// Moves scanned.
    pub moves: u64,
    /// Moves that lowered their mover's chance by [`MISTAKE_DROP`].
    pub mistakes: u64,
    /// Of these, positions where the solver then wins or saves the game
    /// (by the scan).
    pub candidates: u64,
    /// Of these, positions whose first move keeps the result by the
    /// margin at `--nodes`.
    pub unique: u64,
    /// Of these, puzzles whose first move stands the deeper check (some
    /// with `alternatives`).
    pub checked: u64,
    /// Puzzles written.
    pub puzzles: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.games += other.games;
        self.moves += other.moves;
        self.mistakes += other.mistakes;
        self.candidates += other.candidates;
        self.unique += other.unique;
        self.checked += other.checked;
        self.puzzles += other.puzzles;
    }
}

/// What the solver must keep.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Goal {
    /// The win: a chance of at least [`WINNING`].
    Win,
    /// The game: a chance of at least [`SAVED`].
    Save,
}

impl Goal {
    fn least(self) -> u32 {
        match self {
            Goal::Win => WINNING,
            Goal::Save => SAVED,
        }
    }
}

/// What the endgame solve says of a solver's turn.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Proof {
    /// This move wins by force and no other does.
    Unique(Move),
    /// Another move wins too, or none is proven to.
    NotUnique,
    /// Too many stones, or a search ended before its proof.
    Unknown,
}

/// The two best lines of a MultiPV 2 search.
#[derive(Clone, Debug)]
struct TwoLines {
    best: Move,
    best_chance: u32,
    /// `None` when the position has one legal move.
    second_chance: Option<u32>,
    /// Whether the endgame solve proved the best move the only win.
    proven: bool,
    /// Nodes searched when the best move last changed.
    nodes_needed: u64,
}

/// Collects a MultiPV 2 search's last complete pair of lines and when its
/// best move last changed.
#[derive(Default)]
struct PairListener {
    /// The position has one legal move: a line comes alone.
    single: bool,
    state: Mutex<PairState>,
}

#[derive(Default)]
struct PairState {
    current: Option<Info>,
    pair: Option<(Info, Option<Info>)>,
    best: Option<Move>,
    changed_at: u64,
}

impl Listener for PairListener {
    fn info(&self, info: &Info) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match info.multipv {
            1 => {
                let first = info.pv.first().copied();
                if first != state.best {
                    state.best = first;
                    state.changed_at = info.nodes;
                }
                // A pair is complete when its second line comes; until
                // then the last pair stands (a single legal move has one).
                if self.single {
                    state.pair = Some((info.clone(), None));
                } else {
                    state.current = Some(info.clone());
                }
            }
            2 => {
                if let Some(first) = state.current.take() {
                    state.pair = Some((first, Some(info.clone())));
                }
            }
            _ => {}
        }
    }
}

/// What the deeper check says of a puzzle's first move.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Verdict {
    /// It holds as the puzzle is.
    Holds,
    /// The solution's first move is a proven win and so is another: it
    /// holds with these (every other first move proven to win, the second
    /// line's among them) as `alternatives`.
    Alternatives(Vec<String>),
    /// It fails, and why.
    Fails(String),
}

/// Twice a line's win chance (2w + d, per mille doubled: no halves).
fn twice_chance(info: &Info) -> u32 {
    let wdl = info.score.wdl();
    2 * wdl.win + wdl.draw
}

/// Whether a line is a proven win for the side to move.
fn proven_win(info: &Info) -> bool {
    matches!(info.score, Score::Mate(n) if n > 0)
}

/// Win chance of the side to move, per mille, from a score.
fn chance(score: Score, side: Player) -> u32 {
    (Evaluation::from_score(score, side, false).win_percent(side) * 10.0).round() as u32
}

/// The puzzle finder: one engine, one thread.
pub struct Generator {
    engine: Engine,
    nodes: u64,
    check_nodes: u64,
}

impl Generator {
    /// A finder searching `nodes` a solver's turn, each puzzle's first
    /// move checked by a search of `check_nodes` (Threads 1 and the
    /// default Hash, as the protocol's defaults).
    pub fn new(nodes: u64, check_nodes: u64) -> Generator {
        let mut engine = Engine::new();
        engine.set_threads(1);
        engine.set_move_overhead(0);
        Generator {
            engine,
            nodes: nodes.max(SCAN_DIVISOR),
            check_nodes: check_nodes.max(ALTERNATIVE_DIVISOR),
        }
    }

    /// The deeper check of `puzzle` (docs/learn.md): its position searched
    /// afresh with MultiPV 2 and `check_nodes`, the solution's first move
    /// must be the best move, and either a proven win while the second
    /// line is not, or its win chance [`CHECK_MARGIN`] above the second's.
    /// A second proven win passes if `alternatives` lists its move; if it
    /// does not, the verdict lists every other first move proven to win,
    /// or fails where they are more than [`MAX_ALTERNATIVES`].
    pub fn check(&mut self, puzzle: &Puzzle) -> Verdict {
        let (Ok(rules), Ok(position)) = (puzzle.rules(), parse_position(&puzzle.position)) else {
            return Verdict::Fails("not a puzzle".to_string());
        };
        let solution = puzzle.solution().first().copied().unwrap_or_default();
        if crate::movegen::legal_moves(&position, &rules).len() < 2 {
            return Verdict::Fails("one legal move".to_string());
        }
        self.engine.new_game();
        self.engine.set_rules(rules);
        self.engine.set_position(position);
        self.engine.set_multipv(2);
        let listener = PairListener::default();
        let result = self
            .engine
            .search(&Self::limits(self.check_nodes), &listener);
        self.engine.set_multipv(1);
        let state = listener
            .state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        let Some((first, Some(second))) = state.pair else {
            return Verdict::Fails("no complete pair of lines".to_string());
        };
        let best = result
            .best_move
            .map(|mv| mv.to_string())
            .unwrap_or_default();
        let first_move = first.pv.first().map(|mv| mv.to_string());
        if best != solution || first_move.as_deref() != Some(solution) {
            return Verdict::Fails(format!("the deeper search plays {best}"));
        }
        let second_move = second
            .pv
            .first()
            .map(|mv| mv.to_string())
            .unwrap_or_default();
        match (proven_win(&first), proven_win(&second)) {
            (true, false) => Verdict::Holds,
            (true, true) if puzzle.alternatives.contains(&second_move) => Verdict::Holds,
            (true, true) => {
                let others = self.other_wins(&position, &rules, solution, &second_move);
                if others.len() > MAX_ALTERNATIVES {
                    Verdict::Fails(format!("{} other first moves win", others.len()))
                } else {
                    Verdict::Alternatives(others)
                }
            }
            _ if twice_chance(&first) >= twice_chance(&second) + 2 * CHECK_MARGIN => Verdict::Holds,
            _ => Verdict::Fails(format!(
                "a margin of {} per mille ({second_move} second)",
                (f64::from(twice_chance(&first)) - f64::from(twice_chance(&second))) / 2.0
            )),
        }
    }

    /// The first moves of `position` other than `solution` proven to win:
    /// `known` (the deeper check's second line, a proven win) and each
    /// other move whose position a search of a tenth of `check_nodes`
    /// proves lost for the opponent, in the order of the legal moves.
    fn other_wins(
        &mut self,
        position: &Position,
        rules: &Rules,
        solution: &str,
        known: &str,
    ) -> Vec<String> {
        let solver = position.side_to_move();
        let limits = Self::limits(self.check_nodes / ALTERNATIVE_DIVISOR);
        let mut wins = Vec::new();
        for mv in crate::movegen::legal_moves(position, rules).iter().copied() {
            let text = mv.to_string();
            if text == solution {
                continue;
            }
            let child = position.play(mv);
            let wins_too = text == known
                || match Status::of(&child, rules) {
                    Status::Over { winner, .. } => winner == Some(solver),
                    Status::InPlay => {
                        self.engine.set_position(child);
                        let other = self.engine.search(&limits, &Silent);
                        matches!(other.final_info.map(|info| info.score), Some(Score::Mate(n)) if n <= 0)
                    }
                };
            if wins_too {
                wins.push(text);
            }
        }
        wins
    }

    fn limits(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// The side to move's win chance, by a search of `nodes`.
    fn scan(&mut self, position: &Position, rules: &Rules) -> u32 {
        self.engine.set_rules(*rules);
        self.engine.set_position(*position);
        let side = position.side_to_move();
        if let Status::Over { winner, .. } = self.engine.status() {
            return match winner {
                Some(player) if player == side => 1000,
                Some(_) => 0,
                None => 500,
            };
        }
        self.engine.set_multipv(1);
        let result = self
            .engine
            .search(&Self::limits(self.nodes / SCAN_DIVISOR), &Silent);
        match result.final_info {
            Some(info) => chance(info.score, side),
            None => 500,
        }
    }

    /// The best move by a search of `nodes`, as the opponent's reply.
    fn reply(&mut self, position: &Position, rules: &Rules) -> Option<Move> {
        self.engine.set_rules(*rules);
        self.engine.set_position(*position);
        self.engine.set_multipv(1);
        self.engine
            .search(&Self::limits(self.nodes), &Silent)
            .best_move
    }

    /// The solve of a solver's turn with few stones: the best move's
    /// search must prove a forced win, and each other move's a result no
    /// better than a draw for the solver.
    fn prove(&mut self, position: &Position, rules: &Rules) -> Proof {
        if position.stone_count() > PROOF_STONES {
            return Proof::Unknown;
        }
        let limits = Self::limits(self.nodes / PROOF_DIVISOR);
        self.engine.set_rules(*rules);
        self.engine.set_multipv(1);
        self.engine.set_position(*position);
        let result = self.engine.search(&limits, &Silent);
        let (Some(best), Some(info)) = (result.best_move, result.final_info) else {
            return Proof::Unknown;
        };
        if !matches!(info.score, Score::Mate(n) if n > 0) {
            // A best move that is not a proven win leaves no win to keep.
            return if result.proven {
                Proof::NotUnique
            } else {
                Proof::Unknown
            };
        }
        let solver = position.side_to_move();
        for mv in crate::movegen::legal_moves(position, rules).iter().copied() {
            if mv == best {
                continue;
            }
            let child = position.play(mv);
            match Status::of(&child, rules) {
                Status::Over { winner, .. } if winner == Some(solver) => return Proof::NotUnique,
                Status::Over { .. } => continue,
                Status::InPlay => {}
            }
            self.engine.set_position(child);
            let other = self.engine.search(&limits, &Silent);
            match other.final_info.map(|info| info.score) {
                // The opponent loses by force: this move wins too.
                Some(Score::Mate(n)) if n <= 0 => return Proof::NotUnique,
                Some(_) if other.proven => {}
                _ => return Proof::Unknown,
            }
        }
        Proof::Unique(best)
    }

    /// The two best lines by a MultiPV 2 search of `nodes`.
    fn two_lines(&mut self, position: &Position, rules: &Rules) -> Option<TwoLines> {
        self.engine.set_rules(*rules);
        self.engine.set_position(*position);
        self.engine.set_multipv(2);
        let listener = PairListener {
            single: crate::movegen::legal_moves(position, rules).len() == 1,
            ..PairListener::default()
        };
        let result = self.engine.search(&Self::limits(self.nodes), &listener);
        self.engine.set_multipv(1);
        let state = listener
            .state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        let (first, second) = state.pair?;
        let best = *first.pv.first()?;
        // The move played must be the line reported: a search cut inside
        // an iteration may name another.
        if result.best_move != Some(best) {
            return None;
        }
        let side = position.side_to_move();
        Some(TwoLines {
            best,
            best_chance: chance(first.score, side),
            second_chance: second.map(|line| chance(line.score, side)),
            proven: false,
            nodes_needed: state.changed_at.max(1),
        })
    }

    /// The puzzles of one game, with what each filter kept.
    pub fn game(&mut self, game: &Game) -> (Vec<Puzzle>, Counts) {
        let rules = game.rules();
        let positions = game.positions();
        let mut counts = Counts {
            games: 1,
            moves: game.moves().len() as u64,
            ..Counts::default()
        };
        self.engine.new_game();
        // From the end back, as a review searches: what a later search
        // proved helps the earlier ones.
        let mut chances = vec![0u32; positions.len()];
        for index in (0..positions.len()).rev() {
            chances[index] = self.scan(&positions[index], &rules);
        }
        let mut puzzles = Vec::new();
        for (ply, mistake) in game.moves().iter().enumerate() {
            let solver_before = 1000 - chances[ply];
            let solver_after = chances[ply + 1];
            let drop = solver_after.saturating_sub(solver_before);
            if drop < MISTAKE_DROP {
                continue;
            }
            counts.mistakes += 1;
            let goal = if solver_after >= WINNING {
                Goal::Win
            } else if solver_before <= LOST && solver_after >= SAVED {
                Goal::Save
            } else {
                continue;
            };
            let position = positions[ply + 1];
            if Status::of(&position, &rules) != Status::InPlay {
                continue;
            }
            counts.candidates += 1;
            self.engine.new_game();
            let Some(mut puzzle) = self.solve(
                &positions[ply],
                *mistake,
                &position,
                &rules,
                goal,
                &mut counts,
            ) else {
                continue;
            };
            match self.check(&puzzle) {
                Verdict::Holds => {}
                Verdict::Alternatives(moves) => puzzle.alternatives = moves,
                Verdict::Fails(_) => continue,
            }
            counts.checked += 1;
            counts.puzzles += 1;
            puzzles.push(puzzle);
        }
        (puzzles, counts)
    }

    /// The puzzle from `position` (after `mistake` in `before`), if its
    /// first move is the only one that keeps `goal`.
    fn solve(
        &mut self,
        before: &Position,
        mistake: Move,
        position: &Position,
        rules: &Rules,
        goal: Goal,
        counts: &mut Counts,
    ) -> Option<Puzzle> {
        let solver = position.side_to_move();
        let mut line: Vec<Move> = Vec::new();
        let mut current = *position;
        let mut first: Option<TwoLines> = None;
        for turn in 0..MAX_SOLVER_MOVES {
            let mut lines = match self.two_lines(&current, rules) {
                Some(lines) => lines,
                None if turn == 0 => return None,
                None => break,
            };
            let forced = lines.second_chance.is_none();
            let proof = match goal {
                Goal::Win if !forced => self.prove(&current, rules),
                _ => Proof::Unknown,
            };
            let unique = match (proof, lines.second_chance) {
                // A forced first move is no puzzle; later it keeps the line.
                (_, None) => turn > 0,
                (Proof::Unique(mv), _) => {
                    if mv != lines.best {
                        // The search's own pick was another move: hard.
                        lines.nodes_needed = self.nodes;
                    }
                    lines.best = mv;
                    lines.best_chance = 1000;
                    lines.proven = true;
                    true
                }
                (Proof::NotUnique, _) => false,
                (Proof::Unknown, Some(second)) => lines.best_chance >= second + MARGIN,
            };
            if !unique || lines.best_chance < goal.least() {
                if turn == 0 {
                    return None;
                }
                break;
            }
            if turn == 0 {
                counts.unique += 1;
                first = Some(lines.clone());
            }
            // A solver move that ends the game ends the puzzle.
            let after = current.play(lines.best);
            line.push(lines.best);
            if Status::of(&after, rules) != Status::InPlay || turn + 1 == MAX_SOLVER_MOVES {
                current = after;
                break;
            }
            let Some(reply) = self.reply(&after, rules) else {
                current = after;
                break;
            };
            let next = after.play(reply);
            if Status::of(&next, rules) != Status::InPlay {
                // The reply would end the game: the solution ends before it.
                current = after;
                break;
            }
            line.push(reply);
            current = next;
        }
        // The solution ends with the solver's move.
        if line.len().is_multiple_of(2) {
            line.pop();
            current = replay(position, &line);
        }
        let first = first?;
        let themes = themes(position, &line, rules, solver, goal, first.proven, &current);
        let options = options_of(rules);
        let position_text = format_position(position);
        Some(Puzzle {
            id: puzzle_id(&position_text, &options),
            options,
            position: position_text,
            moves: line
                .iter()
                .map(|mv| mv.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            themes,
            rating: rating(first.nodes_needed),
            before: Some(format_position(before)),
            mistake: Some(mistake.to_string()),
            alternatives: Vec::new(),
        })
    }
}

/// The position after `moves` from `start`.
fn replay(start: &Position, moves: &[Move]) -> Position {
    moves.iter().fold(*start, |position, mv| position.play(*mv))
}

/// A puzzle's rating from the nodes its first move needs: 800 when the
/// search sees it at once, 150 more for each doubling past 100 nodes.
pub fn rating(nodes_needed: u64) -> i32 {
    let doublings = (nodes_needed.max(100) as f64 / 100.0).log2();
    (800.0 + 150.0 * doublings).round().clamp(600.0, 3000.0) as i32
}

/// A short id from the position and rules (FNV-1a, 48 bits in hex).
fn puzzle_id(position: &str, options: &std::collections::BTreeMap<String, String>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = options
        .values()
        .flat_map(|value| value.bytes().chain(std::iter::once(b'/')))
        .chain(position.bytes());
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:012x}", hash >> 16)
}

/// The themes of a solution (docs/learn.md defines each).
fn themes(
    start: &Position,
    line: &[Move],
    rules: &Rules,
    solver: Player,
    goal: Goal,
    proven: bool,
    end: &Position,
) -> Vec<String> {
    let mut themes = Vec::new();
    let mut position = *start;
    let (mut big, mut entry, mut even_runs) = (false, false, false);
    for (index, mv) in line.iter().enumerate() {
        if index % 2 == 0 {
            let capture = position.capture(*mv);
            big |= capture.stones() >= BIG_CAPTURE_STONES;
            entry |= position.phase() == Phase::KaEntry;
            let after = position.play(*mv);
            let biggest = crate::movegen::legal_moves(&position, rules)
                .iter()
                .map(|other| position.capture(*other).points())
                .max()
                .unwrap_or(0);
            let replies = crate::movegen::legal_moves(&after, rules).len();
            even_runs |= capture.points() < biggest && replies > 0 && replies <= SQUEEZE_MOVES;
        }
        position = position.play(*mv);
    }
    if let Status::Over {
        winner: Some(winner),
        reason,
        ..
    } = Status::of(end, rules)
        && winner == solver
    {
        themes.push(match reason {
            Reason::Suntuk => "suntuk",
            Reason::Score => "last-stones",
        });
    }
    if big {
        themes.push("big-capture");
    }
    if proven {
        themes.push("endgame-proof");
    }
    if entry {
        themes.push("ka-entry");
    }
    if even_runs {
        themes.push("even-runs");
    }
    if goal == Goal::Save {
        themes.push("save");
    }
    themes.push(if start.stone_count() <= ENDGAME_STONES {
        "endgame"
    } else if start.phase() == Phase::KaMove {
        "middlegame"
    } else {
        "opening"
    });
    themes.push(match line.len().div_ceil(2) {
        1 => "one-move",
        2 => "short",
        3 => "long",
        _ => "very-long",
    });
    themes.into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, parse_position};
    use crate::record;

    /// Twelve games of `pasang match`, as tests/puzzles.rs uses them.
    const GAMES: &str = include_str!("../../tests/data/puzzle-games.rec");

    #[test]
    fn games_give_puzzles_that_start_after_their_mistake() {
        let mut generator = Generator::new(20_000, 200_000);
        let mut total = Counts::default();
        let mut found = Vec::new();
        for record in record::read(GAMES).unwrap() {
            let game = Game::from_record(&record).unwrap();
            let (puzzles, counts) = generator.game(&game);
            assert_eq!(counts.puzzles, puzzles.len() as u64);
            let positions: Vec<String> = game.positions().iter().map(format_position).collect();
            for puzzle in &puzzles {
                puzzle.check().unwrap();
                // The mistake is the game's: `before` is one of its
                // positions, the puzzle the next.
                let at = positions
                    .iter()
                    .position(|p| Some(p) == puzzle.before.as_ref())
                    .unwrap();
                assert_eq!(positions[at + 1], puzzle.position);
                assert_eq!(
                    game.moves()[at].to_string(),
                    puzzle.mistake.clone().unwrap()
                );
                // The first move is a choice: never the only legal move.
                let rules = puzzle.rules().unwrap();
                let start = parse_position(&puzzle.position).unwrap();
                assert!(crate::movegen::legal_moves(&start, &rules).len() > 1);
                let length =
                    ["one-move", "short", "long", "very-long"][(puzzle.solution().len() - 1) / 2];
                assert!(puzzle.themes.iter().any(|t| t == length), "{puzzle:?}");
            }
            found.extend(puzzles);
            total += counts;
        }
        assert!(!found.is_empty());
        assert!(total.moves >= total.mistakes);
        assert!(total.mistakes >= total.candidates);
        assert!(total.candidates >= total.unique);
        assert!(total.unique >= total.checked);
        assert!(total.checked >= total.puzzles);
        // A game's puzzles depend on the game alone, not on the games
        // searched before it (a cleared table each time).
        let last = record::read(GAMES).unwrap().pop().unwrap();
        let alone = Generator::new(20_000, 200_000).game(&Game::from_record(&last).unwrap());
        let again = generator.game(&Game::from_record(&last).unwrap());
        assert_eq!(alone, again);
    }

    #[test]
    fn themes_name_the_finish_the_phase_and_the_length() {
        // South's ka takes the last stone (b5) from b1: the game ends on
        // points, South ahead.
        let start = parse_position(
            "..........N/.........../.........../.........../.........../.....+...../.w........./.........../.........../.........../S.......... s 10 4 ak",
        )
        .unwrap();
        let rules = Rules::default();
        let mv = parse_move(&start, &rules, "a1b1n").unwrap();
        let end = start.play(mv);
        let themes = themes(&start, &[mv], &rules, Player::South, Goal::Win, true, &end);
        assert_eq!(
            themes,
            ["last-stones", "endgame-proof", "endgame", "one-move"]
        );
        let saved = themes_of_save(&start, mv, &rules);
        assert!(saved.contains(&"save".to_string()));
    }

    fn themes_of_save(start: &Position, mv: Move, rules: &Rules) -> Vec<String> {
        themes(
            start,
            &[mv],
            rules,
            Player::South,
            Goal::Save,
            false,
            &start.play(mv),
        )
    }

    /// Three puzzles the generator once shipped, before the deeper check.
    const CHECKED: [&str; 3] = [
        // Another first move (d3c3s) is the deeper search's best.
        r#"{"id":"ebc74ee68b96","options":{"Centre":"open","Ka Entry":"slide","Pattern":"2","Second Column":"any"},"position":"bwwbbw.b..b/bbwwbb...../wbbwwb.w..w/bwwbww...../wwbbbw.w..b/wbb..+...../bbwwb..bbww/bww....bwwb/...S......./w.bww...wbb/.......N... s 41 44 fj","moves":"d3b3n h1a1n b3e3s a1j1n e3c3s j1j2e c3k3n","themes":["suntuk","even-runs","middlegame","very-long"],"rating":836}"#,
        // k2k1w wins, and so do k2b2n and k2b2s.
        r#"{"id":"7b62aeb584c8","options":{"Centre":"wall","Ka Entry":"jump","Pattern":"1","Second Column":"opposite"},"position":".www.b..b../.www.b..b../.bww.b..w../.bbw......./.........../.bb..+...../.........../.ww...ww.../.........S./..........N/.bb...www.. n 72 60 ej","moves":"k2k1w j3i3n k1k8w","themes":["big-capture","endgame","short"],"rating":1910}"#,
        // h6h4w wins, and three other first moves too.
        r#"{"id":"eac0bc590c44","options":{"Centre":"open","Ka Entry":"both","Pattern":"2","Second Column":"opposite"},"position":".w.......bb/N.........w/.........ww/........wwb/.w......w.b/.b...+.S.../.b........w/.w........./wwbw.b....w/wbbwwbb...b/bbwbwwb...b s 54 64 id","moves":"h6h4w a10a5e h4h10e a5b5s h10h5e b5b3w h5a5s b3a3s a5a6e","themes":["even-runs","endgame","very-long"],"rating":1593}"#,
    ];

    #[test]
    fn the_deeper_check_drops_other_best_moves_and_lists_other_wins() {
        let puzzles = read_puzzles_of(&CHECKED);
        let mut generator = Generator::new(0, CHECK_NODES);
        assert_eq!(
            generator.check(&puzzles[0]),
            Verdict::Fails("the deeper search plays d3c3s".to_string())
        );
        let two = vec!["k2b2n".to_string(), "k2b2s".to_string()];
        assert_eq!(
            generator.check(&puzzles[1]),
            Verdict::Alternatives(two.clone())
        );
        // Listed, they pass as they are.
        let mut listed = puzzles[1].clone();
        listed.alternatives = two;
        assert_eq!(generator.check(&listed), Verdict::Holds);
        assert_eq!(
            generator.check(&puzzles[2]),
            Verdict::Fails("3 other first moves win".to_string())
        );
    }

    fn read_puzzles_of(lines: &[&str]) -> Vec<Puzzle> {
        crate::puzzles::read_puzzles(&lines.join("\n")).unwrap()
    }

    #[test]
    fn the_rating_grows_with_the_search_needed() {
        assert_eq!(rating(1), 800);
        assert_eq!(rating(200), 950);
        assert!(rating(100_000) > rating(10_000));
        assert!(rating(u64::MAX) <= 3000);
    }

    #[test]
    fn ids_are_url_safe_and_differ() {
        let options = options_of(&Rules::default());
        let a = puzzle_id("a", &options);
        let b = puzzle_id("b", &options);
        assert_ne!(a, b);
        assert_eq!(a.len(), 12);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
