//! One search thread: iterative deepening, the root, and the recursive
//! principal variation search with its per-thread tables; the endgame
//! solve is in `solve`.

mod solve;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{
    Clock, INFINITY, Info, MATE, MATE_BOUND, MAX_PLY, MainOutcome, Score, Shared, elapsed_ms,
};
use super::{Proof, busy, proven};
use crate::eval::evaluate_above;
use crate::movegen::{count_moves, generate_moves, legal_moves};
use crate::moves::{MAX_MOVES, Move, MoveList, StackList};
use crate::position::Position;
use crate::tt::Bound;

/// Depth stored for results whose whole subtree reached the end of the
/// game: exact whatever depth later asks for them.
const PROVEN_DEPTH: i32 = 250;
/// Nodes between clock checks and counter flushes.
const CHECK_INTERVAL: u64 = 512;
/// History values stay within this bound.
const HISTORY_LIMIT: i32 = 1 << 14;
const POINTS: usize = crate::bitboard::POINT_COUNT;

struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    /// Whether the move's last search reached the end of the game on
    /// every line.
    proven: bool,
}

/// A search thread's state. The main thread (index 0) also keeps time and
/// reports.
pub(super) struct Worker<'a> {
    index: usize,
    shared: &'a Shared<'a>,
    root: Position,
    nodes: u64,
    seldepth: usize,
    /// Leaves scored by the evaluation (not by the end of the game) or by
    /// an unproven table entry; unchanged over a subtree means it is proven.
    horizon_hits: u64,
    stopped: bool,
    /// Set while the main thread searches depth 1, which always completes
    /// so that every search has a move with an exact score.
    must_complete: bool,
    clock: Clock,
    pondering: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    pv: Vec<Move>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// The last (depth, move number) sent as `currmove`.
    announced: (u32, usize),
    /// Node count at which an endgame solve pauses (see `solve`).
    solve_limit: u64,
    /// Set when `solve_limit` stopped the search, not a limit of the search.
    solve_paused: bool,
}

#[inline(always)]
fn score_to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
fn score_from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Whether a stored score of this bound settles a node searched with the
/// window (`alpha`, `beta`).
#[inline(always)]
fn cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

impl<'a> Worker<'a> {
    pub(super) fn new(index: usize, shared: &'a Shared<'a>, root: Position) -> Worker<'a> {
        let limits = shared.limits;
        let budget = limits.budget(
            root.side_to_move(),
            root.stone_count(),
            shared.settings.move_overhead,
        );
        Worker {
            index,
            shared,
            root,
            nodes: 0,
            seldepth: 0,
            horizon_hits: 0,
            stopped: false,
            must_complete: false,
            clock: Clock {
                budget,
                from: shared.start,
            },
            pondering: limits.ponder && !limits.infinite,
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; POINTS * POINTS],
            pv: vec![Move::passage(0); (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            announced: (0, 0),
            solve_limit: u64::MAX,
            solve_paused: false,
        }
    }

    fn is_main(&self) -> bool {
        self.index == 0
    }

    /// Iterative deepening; the main thread's outcome is its last complete
    /// iteration.
    pub(super) fn iterate(&mut self) -> MainOutcome {
        let rules = self.shared.rules;
        let limits = self.shared.limits;
        let legal = legal_moves(&self.root, &rules);
        let mut chosen: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| limits.search_moves.is_empty() || limits.search_moves.contains(mv))
            .collect();
        if chosen.is_empty() {
            chosen = legal.to_vec();
        }
        let root = self.root;
        chosen.sort_by_key(|mv| -(root.capture(*mv).points() as i32));
        self.root_moves = chosen
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                pv: vec![mv],
                proven: false,
            })
            .collect();
        let mut outcome = MainOutcome {
            lines: Vec::new(),
            proven: false,
        };
        if self.root_moves.is_empty() {
            return outcome;
        }
        let max_depth = limits.depth.map_or(MAX_PLY as u32 - 1, |depth| {
            depth.clamp(1, MAX_PLY as u32 - 1)
        });
        let multipv = self.shared.settings.multipv.clamp(1, self.root_moves.len());
        let mut previous_score = 0;
        let first_depth = if self.is_main() {
            1
        } else {
            1 + (self.index % 2) as u32
        };
        for depth in first_depth..=max_depth {
            self.must_complete = self.is_main() && depth == 1;
            let horizon_before = self.horizon_hits;
            self.seldepth = 0;
            let score = self.aspiration(depth as i32, previous_score, multipv);
            if self.stopped {
                // A helper may have stopped this iteration by solving the
                // root: its solution stands for the last one completed.
                if let Some(solution) = self.helper_solution()
                    && let Some(line) = outcome.lines.first_mut()
                {
                    self.flush_nodes();
                    self.mark_solved(line, solution);
                    line.nodes = self.shared.total_nodes();
                    line.time_ms = elapsed_ms(self.shared.start);
                    self.shared.listener.info(line);
                    outcome.proven = true;
                }
                break;
            }
            previous_score = score;
            self.root_moves.sort_by_key(|root_move| -root_move.score);
            // A tree that reached the end of the game everywhere is exact. So
            // is a win or loss whose whole line lies within this depth: the
            // mate bound came out of an exact window.
            let mate_plies = MATE - score.abs();
            // A win needs only its own line proven.
            let proven = self.horizon_hits == horizon_before
                || (score.abs() >= MATE_BOUND && mate_plies <= depth as i32)
                || (score >= MATE_BOUND && self.root_moves[0].proven);
            let solved = if !proven && self.may_solve(depth, multipv) {
                self.solve()
            } else {
                None
            };
            if !self.is_main() {
                self.offer_deepest(depth, multipv);
                if let Some(solution) = solved {
                    self.publish_solution(solution);
                }
                if proven || solved.is_some() {
                    break;
                }
                continue;
            }
            let solved = solved.or_else(|| self.helper_solution());
            self.flush_nodes();
            let mut lines: Vec<Info> = self.root_moves[..multipv]
                .iter()
                .enumerate()
                .map(|(line, root_move)| Info {
                    depth,
                    seldepth: self.seldepth.max(1) as u32,
                    multipv: line + 1,
                    score: Score::from_internal(root_move.score),
                    nodes: self.shared.total_nodes(),
                    time_ms: elapsed_ms(self.shared.start),
                    hashfull: self.shared.table.hashfull(),
                    pv: root_move.pv.clone(),
                })
                .collect();
            let proven = proven || solved.is_some();
            if let Some(solution) = solved {
                self.mark_solved(&mut lines[0], solution);
            }
            for info in &lines {
                self.shared.listener.info(info);
            }
            outcome.lines = lines;
            outcome.proven = proven;
            if proven || self.iteration_limits_reached(score) {
                break;
            }
        }
        if self.is_main() {
            self.flush_nodes();
            self.shared.abort.store(true, Ordering::Relaxed);
            self.wait_for_release();
        }
        outcome
    }

    /// A helper's completed iteration, kept if it is the deepest so far.
    fn offer_deepest(&self, depth: u32, multipv: usize) {
        if multipv != 1 {
            return;
        }
        let mut deepest = self
            .shared
            .deepest_helper
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if deepest.as_ref().is_none_or(|info| depth > info.depth) {
            let best = &self.root_moves[0];
            *deepest = Some(Info {
                depth,
                seldepth: self.seldepth.max(1) as u32,
                multipv: 1,
                score: Score::from_internal(best.score),
                nodes: 0,
                time_ms: 0,
                hashfull: 0,
                pv: best.pv.clone(),
            });
        }
    }

    /// Infinite and ponder searches give their bestmove only after `stop`
    /// (or `ponderhit`), even when they finished early.
    fn wait_for_release(&self) {
        let limits = self.shared.limits;
        let signals = self.shared.signals;
        let id = self.shared.id;
        while !signals.stopped(id)
            && (limits.infinite || (limits.ponder && !signals.ponderhit_received(id)))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Limits checked between iterations (main thread).
    fn iteration_limits_reached(&mut self, score: i32) -> bool {
        let limits = self.shared.limits;
        if let Some(moves) = limits.mate
            && score >= MATE_BOUND
            && (MATE - score + 1) / 2 <= moves as i32
        {
            return true;
        }
        if let Some(nodes) = limits.nodes
            && self.shared.total_nodes() >= nodes
        {
            return true;
        }
        self.update_ponder();
        if self.pondering {
            return false;
        }
        // A forced move needs no thought when a clock is running.
        if self.root_moves.len() == 1 && limits.movetime.is_none() && self.clock.budget.is_some() {
            return true;
        }
        // The next iteration would most likely not finish in time.
        self.clock.past_soft(0.6)
    }

    fn update_ponder(&mut self) {
        if self.pondering && self.shared.signals.ponderhit_received(self.shared.id) {
            self.pondering = false;
            self.clock.from = Instant::now();
        }
    }

    /// Searches the root with a window around the previous score, widening
    /// it on failure.
    fn aspiration(&mut self, depth: i32, previous: i32, multipv: usize) -> i32 {
        if depth < 4 || multipv > 1 || previous.abs() >= MATE_BOUND {
            return self.search_root(depth, -INFINITY, INFINITY, multipv);
        }
        let mut delta = 60;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.search_root(depth, alpha, beta, multipv);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta;
            if delta > 2000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn search_root(&mut self, depth: i32, mut alpha: i32, beta: i32, multipv: usize) -> i32 {
        let mut best = -INFINITY;
        let root = self.root;
        for index in 0..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            // Announced once per depth (not again on aspiration re-searches).
            if self.is_main()
                && elapsed_ms(self.shared.start) > 1000
                && self.announced < (depth as u32, index + 1)
            {
                self.announced = (depth as u32, index + 1);
                self.shared
                    .listener
                    .current_move(depth as u32, mv, index + 1);
            }
            // With several lines, a move must beat the last reported one.
            let floor = if multipv > 1 && index >= multipv {
                let mut scores: Vec<i32> = self.root_moves[..index]
                    .iter()
                    .map(|root_move| root_move.score)
                    .collect();
                scores.sort_unstable_by(|a, b| b.cmp(a));
                scores[multipv - 1]
            } else {
                -INFINITY
            };
            let window_floor = alpha.max(floor);
            let child = root.play(mv);
            let horizon_before_move = self.horizon_hits;
            let full_window = index == 0 || (multipv > 1 && index < multipv);
            let mut score;
            if full_window {
                score = -self.negamax(&child, depth - 1, -beta, -window_floor, 1, true);
            } else {
                score = -self.negamax(
                    &child,
                    depth - 1,
                    -window_floor - 1,
                    -window_floor,
                    1,
                    false,
                );
                if score > window_floor && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -window_floor, 1, true);
                }
            }
            if self.stopped {
                return best;
            }
            let root_move = &mut self.root_moves[index];
            root_move.proven = self.horizon_hits == horizon_before_move;
            if full_window || score > window_floor {
                root_move.score = score;
                root_move.pv.clear();
                root_move.pv.push(mv);
                let length = self.pv_len[1];
                for ply in 1..length {
                    root_move.pv.push(self.pv[MAX_PLY + 1 + ply]);
                }
            } else {
                root_move.score = -INFINITY;
            }
            best = best.max(score);
            if multipv == 1 && score > alpha {
                alpha = score;
                if score >= beta {
                    for later in &mut self.root_moves[index + 1..] {
                        later.score = -INFINITY;
                    }
                    break;
                }
            }
        }
        best
    }

    #[inline(always)]
    fn flush_nodes(&self) {
        self.shared.node_counters[self.index]
            .0
            .store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node and, every so often, checks the limits.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        let limits = self.shared.limits;
        if let Some(limit) = limits.nodes
            && self.shared.single_threaded()
            && self.nodes >= limit
        {
            self.stop();
        }
        if self.nodes % CHECK_INTERVAL == 0 {
            self.flush_nodes();
            if self.nodes >= self.solve_limit {
                self.stopped = true;
                self.solve_paused = true;
            }
            if self.is_main() {
                self.update_ponder();
                if (!self.pondering && self.clock.past_hard())
                    || limits
                        .nodes
                        .is_some_and(|limit| self.shared.total_nodes() >= limit)
                    || self.shared.solution.get().is_some()
                {
                    self.stop();
                }
            }
            if self.shared.should_abort() {
                self.stop();
            }
        }
    }

    #[inline(always)]
    fn stop(&mut self) {
        if !self.must_complete {
            self.stopped = true;
            self.solve_paused = false;
        }
    }

    #[inline(always)]
    fn history_index(&self, mv: Move) -> usize {
        mv.from().index() * POINTS + mv.to().index()
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let rules = self.shared.rules;
        if !position.has_stones() {
            // The game is over: a win or loss by points, or a draw.
            let margin = position.score(position.side_to_move()) as i32
                - position.score(position.side_to_move().opponent()) as i32;
            return match margin.signum() {
                1 => MATE - ply as i32,
                -1 => -(MATE - ply as i32),
                _ => 0,
            };
        }
        // Every move captures a stone: no line is longer than the stones
        // left, and searching deeper than that changes nothing.
        let depth = depth.min(position.stone_count() as i32);
        // Mate distance pruning: no result here can beat a win already
        // found closer to the root, nor lose faster than losing now.
        alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 || ply >= MAX_PLY {
            let moves = count_moves(position, &rules);
            if moves == 0 {
                return -(MATE - ply as i32);
            }
            self.horizon_hits += 1;
            return evaluate_above(position, &rules, moves as u32, alpha);
        }

        let key = position.key();
        let mut table_move = None;
        if let Some(entry) = self.shared.table.probe(key) {
            table_move = entry.best_move;
            let score = score_from_table(entry.score, ply);
            let proven = entry.depth >= PROVEN_DEPTH;
            if entry.depth >= depth
                && cuts(entry.bound, score, alpha, beta)
                && (!pv_node || (proven && entry.bound == Bound::Exact))
            {
                if !proven {
                    self.horizon_hits += 1;
                }
                return score;
            }
        }

        if depth >= proven::MIN_PROBE_DEPTH
            && let Some(proof) = self.shared.proven.get(key)
        {
            let score = score_from_table(proof.score, ply);
            // As with the table, principal-variation nodes take only exact
            // results.
            if cuts(proof.bound, score, alpha, beta) && (!pv_node || proof.bound == Bound::Exact) {
                return score;
            }
            table_move = table_move.or(proof.best_move);
        }

        let nodes_before = self.nodes;
        let mut moves = MoveList::new();
        generate_moves(position, &rules, &mut moves);
        if moves.is_empty() {
            return -(MATE - ply as i32); // suntuk
        }
        // The children will probe the table first thing, and a probe is
        // most of a node's time when it misses the cache: ask for all their
        // clusters now, so the loads overlap (0.75-0.83x the time of an
        // endgame solve, 0.88x of the bench).
        if depth > 1 {
            for &mv in moves.iter() {
                self.shared.table.prefetch(position.key_after(mv));
            }
        }
        let mut order = StackList::<i32, MAX_MOVES>::new();
        for &mv in moves.iter() {
            order.push(if Some(mv) == table_move {
                1 << 30
            } else if Some(mv) == self.killers[ply][0] {
                1 << 26
            } else if Some(mv) == self.killers[ply][1] {
                (1 << 26) - 1
            } else {
                ((position.capture(mv).points() as i32) << 15)
                    + self.history[self.history_index(mv)]
            });
        }

        let horizon_before = self.horizon_hits;
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let count = moves.len();
        let child_depth = depth - 1;
        // With several threads, later moves another thread is busy with are
        // put off to the end (see `busy`).
        let busy = self
            .shared
            .busy
            .as_ref()
            .filter(|_| child_depth >= busy::MIN_DEPTH);
        let mut deferred = MoveList::new();
        let mut step = 0;
        while step < count + deferred.len() {
            let index = step;
            step += 1;
            let mv = if index < count {
                // Selection sort: most nodes cut off after the first moves.
                let mut pick = index;
                for candidate in index + 1..count {
                    if order[candidate] > order[pick] {
                        pick = candidate;
                    }
                }
                order.swap(index, pick);
                moves.as_mut_slice().swap(index, pick);
                moves[index]
            } else {
                deferred[index - count]
            };

            // Leaves never read their key: skip updating it.
            let mut child = *position;
            if child_depth > 0 {
                child.make(mv);
            } else {
                child.make_unkeyed(mv);
            }
            let busy = busy.filter(|_| index > 0);
            if let Some(busy) = busy {
                if index < count && busy.is_busy(child.key()) {
                    deferred.push(mv);
                    continue;
                }
                busy.enter(child.key());
            }
            let horizon_before_move = self.horizon_hits;
            let mut score;
            if index == 0 {
                score = -self.negamax(&child, child_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                // No late-move reductions: they saved a third of the nodes
                // at fixed depth but measured -5 +- 34 Elo over 400 games
                // (docs/strength.md), so they did not pay.
                score = -self.negamax(&child, child_depth, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.negamax(&child, child_depth, -beta, -alpha, ply + 1, true);
                }
            }
            if let Some(busy) = busy {
                busy.leave(child.key());
            }
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        // Put-off moves were not tried: no malus for them.
                        let tried = if deferred.is_empty() {
                            &moves[..index]
                        } else {
                            &[]
                        };
                        self.reward(ply, mv, depth, tried);
                        // A lower bound needs only the refuting move: if its
                        // subtree reached the end of the game everywhere,
                        // the bound is proven whatever the earlier moves
                        // left open.
                        if self.horizon_hits == horizon_before_move {
                            self.horizon_hits = horizon_before;
                        }
                        break;
                    }
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if self.horizon_hits == horizon_before {
            PROVEN_DEPTH
        } else {
            depth
        };
        self.shared.table.store(
            key,
            best_move.or(table_move),
            score_to_table(best_score, ply),
            stored_depth,
            bound,
        );
        if stored_depth == PROVEN_DEPTH && self.nodes - nodes_before >= proven::MIN_SUBTREE_NODES {
            self.shared.proven.insert(
                key,
                Proof {
                    score: score_to_table(best_score, ply),
                    bound,
                    best_move: best_move.or(table_move),
                },
            );
        }
        best_score
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let row = ply * (MAX_PLY + 1);
        let next_row = (ply + 1) * (MAX_PLY + 1);
        self.pv[row + ply] = mv;
        let next_len = self.pv_len[ply + 1].max(ply + 1);
        for later in ply + 1..next_len {
            self.pv[row + later] = self.pv[next_row + later];
        }
        self.pv_len[ply] = next_len;
    }

    /// Killer and history updates after `mv` refuted the node; the moves
    /// tried before it lose history.
    fn reward(&mut self, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(HISTORY_LIMIT / 4);
        let index = self.history_index(mv);
        let entry = &mut self.history[index];
        *entry += bonus - *entry * bonus / HISTORY_LIMIT;
        for &other in tried {
            let index = self.history_index(other);
            let entry = &mut self.history[index];
            *entry -= bonus + *entry * bonus / HISTORY_LIMIT;
        }
    }
}
