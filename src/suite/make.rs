//! Mining suite positions from game records.
//!
//! A game whose engine reported a proven result at ply `p` (a `+M`/`-M`
//! score in its record) was decided earlier than its players saw. From
//! the reports and a deeper search of our own:
//! - **avoid**: going back from `p` over the loser's moves, the first
//!   position the deep search does not prove lost, whose played move
//!   leads to a position it proves lost, is the trap walked into;
//! - **win**: going back from `p` over the winner's moves, the earliest
//!   position the deep search proves won is the win the game's search
//!   did not report.
//!
//! Each root move of an entry is then searched alone to sort it: proven
//! to lose (a trap) or not (a solution) for avoid, proven to win (a
//! solution) or not for win. Every search is single-threaded at a fixed
//! node count on an emptied table, so the same records and budgets give
//! the same suite.

use crate::engine::Engine;
use crate::moves::Move;
use crate::position::{Player, Position};
use crate::record::{Game, Record, Termination};
use crate::rules::Rules;
use crate::search::{Limits, Score, Silent};

use super::{Entry, Half, Kind, options_of};

/// How hard the miner searches.
#[derive(Copy, Clone, Debug)]
pub struct Budgets {
    /// Nodes of the deep search that proves a position won or lost.
    pub deep: u64,
    /// Nodes of each root move's search when sorting the moves.
    pub per_move: u64,
    /// How many of one side's moves to go back from the first report.
    pub moves_back: usize,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            deep: 2_000_000,
            per_move: 300_000,
            moves_back: 8,
        }
    }
}

/// What a search proved about a position, for its side to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Proof {
    /// Wins in this many of its own moves.
    Won(i32),
    /// Loses in this many of its own moves.
    Lost(i32),
    /// Nothing proven.
    Open,
}

/// The score a record's comment gives the mover (`+M11/13 0.018s`,
/// `-3.20/14 0.100s`): `Some(true)` a proven win, `Some(false)` a proven
/// loss, `None` anything else (a book move, a plain score).
fn reported_proof(comment: Option<&str>) -> Option<bool> {
    let token = comment?.split_whitespace().next()?;
    let token = token.split('/').next()?;
    match token.get(..2)? {
        "+M" => Some(true),
        "-M" => Some(false),
        _ => None,
    }
}

/// The miner: one engine, emptied before every search.
pub struct Miner {
    engine: Engine,
    budgets: Budgets,
}

impl Miner {
    /// A miner with `budgets` and a 16 MiB table.
    pub fn new(budgets: Budgets) -> Miner {
        let mut engine = Engine::new();
        // 16 MiB always fits; an error would leave the default size, as good.
        let _ = engine.set_hash(16);
        Miner { engine, budgets }
    }

    /// Searches `position` (restricted to `only` if given) from an empty
    /// table; returns the proof and the line.
    fn search(
        &mut self,
        rules: Rules,
        position: &Position,
        only: Option<Move>,
        nodes: u64,
    ) -> (Proof, Vec<Move>) {
        self.engine.set_rules(rules);
        self.engine.set_position(*position);
        self.engine.new_game();
        let limits = Limits {
            nodes: Some(nodes),
            search_moves: only.into_iter().collect(),
            ..Limits::default()
        };
        let result = self.engine.search(&limits, &Silent);
        let Some(info) = result.final_info else {
            return (Proof::Open, Vec::new());
        };
        let proof = match info.score {
            Score::Mate(moves) if moves > 0 => Proof::Won(moves),
            Score::Mate(moves) => Proof::Lost(-moves),
            Score::Centipoints(_) => Proof::Open,
        };
        (proof, info.pv)
    }

    /// The suite entries of one record (`id` prefixes their ids; `half`
    /// is theirs). A record that does not replay gives none.
    pub fn entries(&mut self, record: &Record, id: &str, half: Half) -> Vec<Entry> {
        let Ok(game) = Game::from_record(record) else {
            return Vec::new();
        };
        let reports: Vec<Option<bool>> = record
            .moves
            .iter()
            .map(|mv| reported_proof(mv.comment.as_deref()))
            .collect();
        let Some(first) = reports.iter().position(Option::is_some) else {
            return Vec::new();
        };
        let positions = game.positions();
        let mover = positions[first].side_to_move();
        let winner = if reports[first] == Some(true) {
            mover
        } else {
            mover.opponent()
        };
        let suntuk = record
            .tag("Termination")
            .is_some_and(|tag| tag == Termination::Suntuk.to_string())
            && record.result.winner() == Some(Some(winner));
        let first_engine_ply = record
            .moves
            .iter()
            .position(|mv| mv.comment.as_deref() != Some("book"))
            .unwrap_or(0);
        let context = Context {
            game: &game,
            id,
            half,
            suntuk,
            first_engine_ply,
            last: first,
        };
        let mut entries = Vec::new();
        entries.extend(self.avoid(&context, winner.opponent()));
        entries.extend(self.win(&context, winner));
        entries
    }

    /// The plies before `context.last` at which `side` moved, latest
    /// first, at most `moves_back` of them.
    fn plies_of(&self, context: &Context, side: Player) -> Vec<usize> {
        let positions = context.game.positions();
        (context.first_engine_ply..context.last)
            .rev()
            .filter(|&ply| positions[ply].side_to_move() == side)
            .take(self.budgets.moves_back)
            .collect()
    }

    /// The trap the loser walked into, if the deep search finds it.
    fn avoid(&mut self, context: &Context, loser: Player) -> Option<Entry> {
        let rules = context.game.rules();
        let positions = context.game.positions();
        for ply in self.plies_of(context, loser) {
            let (before, _) = self.search(rules, &positions[ply], None, self.budgets.deep);
            if matches!(before, Proof::Lost(_)) {
                continue;
            }
            let played = context.game.moves()[ply];
            let (after, refutation) =
                self.search(rules, &positions[ply + 1], None, self.budgets.deep);
            let Proof::Won(moves) = after else {
                return None;
            };
            let (solutions, mut traps) = self.sort_moves(rules, &positions[ply], Kind::Avoid);
            if !traps.contains(&played) {
                traps.push(played);
            }
            let solutions: Vec<Move> = solutions.into_iter().filter(|mv| *mv != played).collect();
            if solutions.is_empty() {
                return None;
            }
            let line: Vec<Move> = std::iter::once(played).chain(refutation).collect();
            return Some(context.entry(
                ply,
                Kind::Avoid,
                &line,
                2 * moves as u32,
                &solutions,
                &traps,
            ));
        }
        None
    }

    /// The earliest forced win of the winner that the deep search proves.
    fn win(&mut self, context: &Context, winner: Player) -> Option<Entry> {
        let rules = context.game.rules();
        let positions = context.game.positions();
        let mut earliest = None;
        for ply in self.plies_of(context, winner) {
            match self.search(rules, &positions[ply], None, self.budgets.deep) {
                (Proof::Won(moves), line) => earliest = Some((ply, moves, line)),
                _ => break,
            }
        }
        let (ply, moves, line) = earliest?;
        let (solutions, _) = self.sort_moves(rules, &positions[ply], Kind::Win);
        if solutions.is_empty() {
            return None;
        }
        Some(context.entry(ply, Kind::Win, &line, 2 * moves as u32 - 1, &solutions, &[]))
    }

    /// Each legal move of `position` searched alone: the solutions and the
    /// traps (moves proven to lose) of an entry of `kind`.
    fn sort_moves(
        &mut self,
        rules: Rules,
        position: &Position,
        kind: Kind,
    ) -> (Vec<Move>, Vec<Move>) {
        let moves = crate::movegen::legal_moves(position, &rules);
        let mut solutions = Vec::new();
        let mut traps = Vec::new();
        for &mv in moves.as_slice() {
            let (proof, _) = self.search(rules, position, Some(mv), self.budgets.per_move);
            match (kind, proof) {
                (Kind::Avoid, Proof::Lost(_)) => traps.push(mv),
                (Kind::Avoid, _) | (Kind::Win, Proof::Won(_)) => solutions.push(mv),
                (Kind::Win, _) => {}
            }
        }
        (solutions, traps)
    }
}

/// One record being mined.
struct Context<'a> {
    game: &'a Game,
    id: &'a str,
    half: Half,
    suntuk: bool,
    first_engine_ply: usize,
    /// The ply of the first proven report.
    last: usize,
}

impl Context<'_> {
    fn entry(
        &self,
        ply: usize,
        kind: Kind,
        line: &[Move],
        plies: u32,
        solutions: &[Move],
        traps: &[Move],
    ) -> Entry {
        let words = |moves: &[Move]| moves.iter().map(Move::to_string).collect::<Vec<_>>();
        Entry {
            id: format!("{}:{ply}", self.id),
            half: self.half,
            kind,
            options: options_of(&self.game.rules()),
            position: crate::notation::format_position(&self.game.positions()[ply]),
            line: words(line).join(" "),
            plies,
            solutions: words(solutions),
            traps: words(traps),
            suntuk: self.suntuk,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_proofs_are_read_from_match_comments() {
        assert_eq!(reported_proof(Some("+M11/13 0.018s")), Some(true));
        assert_eq!(reported_proof(Some("-M1/2 0.000s")), Some(false));
        assert_eq!(reported_proof(Some("+4.72/17 0.009s")), None);
        assert_eq!(reported_proof(Some("book")), None);
        assert_eq!(reported_proof(None), None);
    }
}
