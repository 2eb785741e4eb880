//! The engine facade between the protocol and the search, in the manner
//! of Stockfish's `Engine`: the current game, the settings and the
//! transposition table, set and read through typed methods. It knows no
//! option name and prints nothing: the protocol layer (`protocol`) turns
//! text into these calls and renders every line, and in-process tools
//! (`analyse`, `play`, `datagen`, `tune`) call them directly. The search
//! reports through a [`Listener`].

use crate::eval::wdl::Wdl;

use crate::eval::{EvalParts, evaluate};
use crate::movegen::legal_moves;
use crate::moves::Move;
pub use crate::notation::start_position;
use crate::outcome::Status;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{
    Control, Limits, Listener, Params, Reference, Score, SearchResult, Searcher, Settings,
    StopHandle, Task, skill,
};
use crate::tt::{TableError, TranspositionTable};

/// Most search threads the engine runs.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_THREADS: usize = 256;
/// Most search threads the engine runs: one in a browser, whose threads
/// need cross-origin isolation that static hosts do not give.
#[cfg(target_arch = "wasm32")]
pub const MAX_THREADS: usize = 1;
/// Most lines the engine reports (no position has more moves).
pub const MAX_MULTIPV: usize = crate::moves::MAX_MOVES;
/// Default transposition table size in MiB.
pub(crate) const DEFAULT_HASH_MIB: usize = 16;

/// The current game and settings.
pub struct Engine {
    /// The rules chosen; they apply to positions set afterwards.
    rules: Rules,
    /// The rules the current position is played under.
    game_rules: Rules,
    position: Position,
    /// The table, the proven results and the helper threads.
    searcher: Searcher,
    hash_mib: usize,
    settings: Settings,
    skill_level: u8,
    limit_strength: bool,
    elo: i32,
    /// Stops the in-process searches of [`Engine::search`].
    stop: StopHandle,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the pattern-1 start with default settings.
    pub fn new() -> Engine {
        let rules = Rules::default();
        Engine {
            rules,
            game_rules: rules,
            position: start_position(rules.pattern),
            searcher: Searcher::new(TranspositionTable::new(DEFAULT_HASH_MIB)),
            hash_mib: DEFAULT_HASH_MIB,
            settings: Settings::default(),
            skill_level: skill::MAX_LEVEL,
            limit_strength: false,
            elo: skill::elo_range().1,
            stop: StopHandle::default(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules of the current position.
    pub fn game_rules(&self) -> &Rules {
        &self.game_rules
    }

    /// The rules chosen for positions set from now on.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Current search settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Forgets everything learned: the table and the proven results are
    /// emptied.
    pub fn new_game(&mut self) {
        self.searcher.forget();
    }

    /// Empties the table and the proven results (as [`Engine::new_game`]).
    pub fn clear_hash(&mut self) {
        self.searcher.forget();
    }

    /// Gives the table `mib` MiB. On error the table keeps its size (and
    /// is emptied).
    pub fn set_hash(&mut self, mib: usize) -> Result<(), TableError> {
        if mib == self.hash_mib {
            return Ok(());
        }
        // Free the old table first so the peak is one table.
        self.searcher.set_table(TranspositionTable::new(1));
        match TranspositionTable::try_new(mib) {
            Ok(table) => {
                self.searcher.set_table(table);
                self.hash_mib = mib;
                Ok(())
            }
            Err(error) => {
                self.searcher.set_table(
                    TranspositionTable::try_new(self.hash_mib)
                        .unwrap_or_else(|_| TranspositionTable::new(1)),
                );
                Err(error)
            }
        }
    }

    /// Search threads, 1 to [`MAX_THREADS`].
    pub fn set_threads(&mut self, threads: usize) {
        self.settings.threads = threads.clamp(1, MAX_THREADS);
    }

    /// Lines reported, 1 to [`MAX_MULTIPV`].
    pub fn set_multipv(&mut self, lines: usize) {
        self.settings.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// Milliseconds kept back from the clock for communication.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.settings.move_overhead = ms;
    }

    /// Sets the search's tunable constants (hidden options; their ranges
    /// are checked by [`Params::set`]).
    pub fn set_params(&mut self, params: Params) {
        self.settings.params = params;
    }

    /// A reference player instead of the search (strength measurement).
    pub fn set_reference(&mut self, reference: Reference) {
        self.settings.reference = reference;
    }

    /// The skill level, 0 (weakest) to 20 (full strength); it rules
    /// unless strength is limited by Elo.
    pub fn set_skill_level(&mut self, level: u8) {
        self.skill_level = level.min(skill::MAX_LEVEL);
        self.update_strength();
    }

    /// Seeds the random error of a skill level below 20 for the searches
    /// from now on (`None`: fresh randomness each search).
    pub fn set_skill_seed(&mut self, seed: Option<u64>) {
        self.settings.skill_seed = seed;
    }

    /// Whether the strength follows [`Engine::set_elo`] instead of the
    /// skill level.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.limit_strength = on;
        self.update_strength();
    }

    /// The Elo to play at when strength is limited, clamped to the range
    /// of the measured ladder of skill levels (`UCI_Elo`'s min and max).
    pub fn set_elo(&mut self, elo: i32) {
        let (low, high) = skill::elo_range();
        self.elo = elo.clamp(low, high);
        self.update_strength();
    }

    /// The search's level: the Elo mapped onto the measured ladder when
    /// strength is limited, the skill level otherwise.
    fn update_strength(&mut self) {
        self.settings.skill_level = if self.limit_strength {
            skill::level_for_elo(self.elo)
        } else {
            self.skill_level
        };
    }

    /// Chooses the rules for positions set from now on; the current
    /// position keeps its own. Other rules make every stored result
    /// meaningless, so they are forgotten.
    pub fn choose_rules(&mut self, rules: Rules) {
        if rules != self.rules {
            self.rules = rules;
            self.searcher.forget();
        }
    }

    /// Chooses the rules and plays the current position under them
    /// (command-line tools, which set the rules before a position).
    pub fn set_rules(&mut self, rules: Rules) {
        self.choose_rules(rules);
        self.game_rules = rules;
    }

    /// Sets the position, played under the chosen rules.
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
        self.game_rules = self.rules;
    }

    /// The start position of the chosen rules.
    pub fn start(&self) -> Position {
        start_position(self.rules.pattern)
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.position, &self.game_rules).to_vec()
    }

    /// The game status of the current position.
    pub fn status(&self) -> Status {
        Status::of(&self.position, &self.game_rules)
    }

    /// The score of a finished game for the side to move, and its certain
    /// result: mate 0 for a loss, 100 x the final margin for a win on
    /// points, 0 for a draw. `None` while the game goes on.
    pub fn final_score(&self) -> Option<(Score, Wdl)> {
        let Status::Over { winner, scores, .. } = self.status() else {
            return None;
        };
        let side = self.position.side_to_move();
        Some(match winner {
            None => (Score::Centipoints(0), Wdl::DRAWN),
            Some(player) if player == side => {
                let margin = scores[side.index()] as i32 - scores[side.opponent().index()] as i32;
                (Score::Centipoints(100 * margin), Wdl::WON)
            }
            Some(_) => (Score::Mate(0), Wdl::LOST),
        })
    }

    /// The static evaluation of the current position and its terms.
    pub fn evaluation(&self) -> EvalParts {
        evaluate(&self.position, &self.game_rules)
    }

    /// Searches the current position with the engine's own settings and
    /// evaluation, for a caller in this process: `limits` end it, or
    /// [`StopHandle::stop`] on [`Engine::stop_handle`] from another thread.
    pub fn search(&self, limits: &Limits, listener: &dyn Listener) -> SearchResult {
        self.search_controlled(limits, self.stop.next_search(), listener)
    }

    /// A handle that stops [`Engine::search`] from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Searches the current position under the protocol's `control` (its
    /// `stop`, `ponderhit` and `quit` for search `id`).
    pub(crate) fn search_controlled(
        &self,
        limits: &Limits,
        control: Control<'_>,
        listener: &dyn Listener,
    ) -> SearchResult {
        let task = Task {
            position: &self.position,
            rules: &self.game_rules,
            limits,
            settings: &self.settings,
        };
        self.searcher.search(&task, control, listener)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn a_stop_handle_ends_an_infinite_search() {
        let engine = Engine::new();
        let handle = engine.stop_handle();
        // A stop before the search does not cut it short.
        handle.stop();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        /// Says when the search has reported its first line: it runs, so
        /// a stop now reaches it and not one before it.
        struct Started(std::sync::atomic::AtomicBool);
        impl Listener for Started {
            fn info(&self, _: &crate::search::Info) {
                self.0.store(true, std::sync::atomic::Ordering::Release);
            }
        }
        let started = Started(std::sync::atomic::AtomicBool::new(false));
        let result = std::thread::scope(|scope| {
            let search = scope.spawn(|| engine.search(&limits, &started));
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while !started.0.load(std::sync::atomic::Ordering::Acquire) {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the infinite search reported nothing in 60 s"
                );
                std::thread::yield_now();
            }
            handle.stop();
            search.join().unwrap()
        });
        assert!(result.best_move.is_some());
        assert!(result.nodes > 0);
    }

    #[test]
    fn rules_apply_to_positions_set_afterwards() {
        let mut engine = Engine::new();
        let mut rules = Rules::default();
        rules.pattern = crate::rules::Pattern::Two;
        engine.choose_rules(rules);
        assert_eq!(engine.game_rules(), &Rules::default());
        engine.set_position(engine.start());
        assert_eq!(engine.game_rules(), &rules);
        assert_eq!(
            engine.position(),
            &start_position(crate::rules::Pattern::Two)
        );
    }

    #[test]
    fn a_finished_game_has_its_certain_score() {
        let mut engine = Engine::new();
        assert_eq!(engine.final_score(), None);
        // No stone left, North to move; South won on points.
        let finished = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc";
        engine.set_position(parse_position(finished).unwrap());
        assert_eq!(engine.final_score(), Some((Score::Mate(0), Wdl::LOST)));
    }

    #[test]
    fn settings_stay_in_range() {
        let mut engine = Engine::new();
        engine.set_threads(0);
        engine.set_multipv(10_000);
        assert_eq!(engine.settings().threads, 1);
        assert_eq!(engine.settings().multipv, MAX_MULTIPV);
        engine.set_skill_level(3);
        assert_eq!(engine.settings().skill_level, 3);
        engine.set_limit_strength(true);
        engine.set_elo(i32::MIN);
        assert_eq!(
            engine.settings().skill_level,
            skill::level_for_elo(skill::elo_range().0)
        );
    }
}
