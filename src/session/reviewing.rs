//! Review mode in the session: the review of the game on the board,
//! started when the mode is on and the game has moves, dropped when the
//! moves change, and passed on to the page as it comes. The review itself
//! ([`crate::session::review::GameReview`]) searches on its own, not with the
//! page's engine.

use super::Session;
use crate::session::message::{ErrorKind, PageMessage};
use crate::session::mode::Mode;
use crate::session::review::GameReview;

impl Session {
    /// In review mode, a review of the game on the board (the one there
    /// is, or a new one); elsewhere an unfinished review stops. A review
    /// of other moves than the game's goes.
    pub(super) fn update_review(&mut self) {
        let moves = self.game.moves_to_end();
        if self
            .review
            .as_ref()
            .is_some_and(|review| !review.is_of(&moves))
        {
            self.review = None;
        }
        if self.mode != Mode::Review {
            if self.review.as_ref().is_some_and(GameReview::running) {
                self.review = None;
            }
            self.review_sent = false;
            return;
        }
        // Nothing to judge yet, or a file whose game is still to be picked.
        let picking = self.file.as_ref().is_some_and(|file| !file.is_chosen());
        if self.review.is_none() && !moves.is_empty() && !picking {
            self.review = Some(GameReview::start(self.record_of_game(), moves));
            self.review_sent = false;
        }
        if !self.review_sent
            && let Some(review) = &self.review
        {
            let message = review.message();
            self.send_page(message);
            self.review_sent = true;
        }
    }

    /// Passes on how far the review has come.
    pub(super) fn poll_review(&mut self) {
        let Some(review) = &mut self.review else {
            return;
        };
        match review.poll() {
            Ok(false) => {}
            Ok(true) => {
                let message = review.message();
                self.send_page(message);
            }
            Err(why) => {
                self.review = None;
                self.send_page(PageMessage::error(
                    ErrorKind::Review,
                    format!("the review failed: {why}"),
                ));
            }
        }
    }
}
