//! The recursive principal variation search below the root, with the table
//! and the store of proven results.

use super::{PROVEN_DEPTH, Worker};
use crate::eval::evaluate_above;
use crate::movegen::{generate_moves, move_profile};
use crate::moves::{MAX_MOVES, MoveList, StackList};
use crate::position::{Player, Position};
use crate::search::params::{index, stage};
use crate::search::score::{score_from_table, score_to_table};
use crate::search::{INFINITY, MATE, MATE_BOUND, MAX_PLY, Proof, busy, proven};
use crate::tt::Bound;

// The constants of reverse futility, narrow nodes and ProbCut are tunable
// (`crate::search::params`); what they are and how they were measured:
//
// - `FutilityDepth` (6): the deepest node reverse futility may end.
// - `FutilityMargin1`-`4` (75, 95, 115, 140): how far above beta the
//   static evaluation must stand, per ply of depth left, by stage: the
//   evaluation's error grows with the stones left (the depth 2 -> 4
//   spreads of docs/strength.md: 90, 119, 149, 188). +15.9 +- 9.5 Elo over
//   a flat 100 (SPRT at 50,000 nodes, 2,996 games).
// - `NarrowMoves` (3): a node whose side to move has this many moves or
//   fewer is narrow: its ka is close to suntuk, Pasang's mate, as a king
//   in check is in chess. Reverse futility leaves it alone (the evaluation
//   cannot see a ka running out of captures) and its moves are searched a
//   ply deeper, as chess engines extend checks. The trap suite
//   (docs/strength.md): 151 -> 185 of its 282 tuning positions at 250,000
//   nodes.
// - `ProbCutDepth` (8): the shallowest node ProbCut may end.
// - `ProbCutMargin1`-`4` (195, 187, 247, 315): how far beyond the bound
//   the shallow result must lie, by stage: 3/2 of the spread of a search of
//   depth d around what one of depth d/2 predicts (130, 125, 165, 210), the
//   fit of docs/strength.md on 2,640 positions of self-play games.

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

impl Worker<'_> {
    pub(super) fn negamax(
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
            return match position.margin(position.side_to_move()).signum() {
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
            let own = move_profile(position, &rules);
            if own.moves == 0 {
                return -(MATE - ply as i32);
            }
            self.horizon_hits += 1;
            return evaluate_above(position, &rules, own, alpha);
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

        // Reverse futility: a static evaluation far enough above beta that
        // the few plies left will not bring it down ends the node. Only
        // once both kas move (before, the evaluation reads too little),
        // away from the principal variation, and never where the search
        // sees the end of every line or while solving, whose results must
        // be exact. +55.2 +- 30.1 Elo at 100 ms a move (docs/strength.md).
        if !pv_node
            && self.selective
            && depth <= self.params.get(index::FUTILITY_DEPTH)
            && depth < position.stone_count() as i32
            && beta.abs() < MATE_BOUND
            && position.ka(Player::South).is_some()
            && position.ka(Player::North).is_some()
        {
            let own = move_profile(position, &rules);
            if own.moves == 0 {
                return -(MATE - ply as i32); // suntuk
            }
            if own.moves as i32 > self.params.get(index::NARROW_MOVES) {
                // Only whether the evaluation reaches the threshold matters,
                // so the opponent's moves are counted only if they could.
                let margin = self
                    .params
                    .staged(index::FUTILITY_MARGIN, stage(position.stone_count()));
                let threshold = beta + margin * depth;
                let static_eval = evaluate_above(position, &rules, own, threshold - 1);
                if static_eval >= threshold {
                    // A guess, not a result of the game: not proven.
                    self.horizon_hits += 1;
                    return static_eval;
                }
            }
        }

        // ProbCut (Buro): a search half as deep predicts this one within a
        // spread fitted per stage; where its result lies far enough beyond
        // beta (or below alpha), the deep search would too. Under the same
        // conditions as reverse futility.
        if !pv_node
            && self.selective
            && depth >= self.params.get(index::PROBCUT_DEPTH)
            && depth < position.stone_count() as i32
            && beta.abs() < MATE_BOUND
            && alpha.abs() < MATE_BOUND
            && position.ka(Player::South).is_some()
            && position.ka(Player::North).is_some()
        {
            let margin = self
                .params
                .staged(index::PROBCUT_MARGIN, stage(position.stone_count()));
            let shallow = (depth / 2) & !1;
            let high = beta + margin;
            if high < MATE_BOUND {
                let score = self.negamax(position, shallow, high - 1, high, ply, false);
                if self.stopped {
                    return 0;
                }
                if score >= high {
                    return beta;
                }
            }
            let low = alpha - margin;
            if low > -MATE_BOUND {
                let score = self.negamax(position, shallow, low, low + 1, ply, false);
                if self.stopped {
                    return 0;
                }
                if score <= low {
                    return alpha;
                }
            }
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
        // Their keys are kept for making them below.
        // A narrow node's moves are searched a ply deeper (the extension
        // stops halfway down the stack; every move captures, so the depth
        // cap of the stones left bounds it too).
        let child_depth =
            if moves.len() as i32 <= self.params.get(index::NARROW_MOVES) && ply < MAX_PLY / 2 {
                depth
            } else {
                depth - 1
            };
        let mut child_keys = StackList::<u64, MAX_MOVES>::new();
        if child_depth > 0 {
            for &mv in moves.iter() {
                let child_key = position.key_after(mv);
                self.shared.table.prefetch(child_key);
                child_keys.push(child_key);
            }
        }
        let mut order = StackList::<i32, MAX_MOVES>::new();
        for &mv in moves.iter() {
            order.push(self.order_score(position, mv, table_move, ply));
        }

        let horizon_before = self.horizon_hits;
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let count = moves.len();
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
                if child_depth > 0 {
                    child_keys.swap(index, pick);
                }
                moves[index]
            } else {
                deferred[index - count]
            };

            // Leaves never read their key: skip updating it.
            let mut child = *position;
            if child_depth > 0 && index < count {
                child.make_with_key(mv, child_keys[index]);
            } else if child_depth > 0 {
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
}
