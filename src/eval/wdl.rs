//! Chances of winning, drawing and losing from a score, for
//! `UCI_ShowWDL`.
//!
//! The model is an ordered logit fitted by `pasang tune` to the same
//! self-play games as the weights: P(win) = s(k x cp - d), P(loss) =
//! s(-k x cp - d), P(draw) the rest, s being the logistic function. It is
//! symmetric because the score is the side to move's.

/// Logits per centipoint (k), as `pasang tune` printed it.
const PER_CENTIPOINT: f64 = 0.001094;
/// Half-width of the draw band in logits (d).
const DRAW_BAND: f64 = 0.0860;

/// Win, draw and loss chances in per mille; they add up to 1000.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Wdl {
    /// Chance that the side to move wins.
    pub win: u32,
    /// Chance of a draw.
    pub draw: u32,
    /// Chance that the side to move loses.
    pub loss: u32,
}

impl Wdl {
    /// A certain win.
    pub const WON: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain draw.
    pub const DRAWN: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };
    /// A certain loss.
    pub const LOST: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };

    /// The model's chances at a score of `centipoints`.
    pub fn of_centipoints(centipoints: i32) -> Wdl {
        let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
        let x = PER_CENTIPOINT * f64::from(centipoints);
        let win = (1000.0 * logistic(x - DRAW_BAND)).round() as u32;
        let loss = (1000.0 * logistic(-x - DRAW_BAND)).round() as u32;
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_add_up_and_follow_the_score() {
        let mut previous = Wdl::LOST;
        for centipoints in (-6000..=6000).step_by(50) {
            let wdl = Wdl::of_centipoints(centipoints);
            assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000);
            assert!(wdl.win >= previous.win && wdl.loss <= previous.loss);
            previous = wdl;
        }
        let even = Wdl::of_centipoints(0);
        assert_eq!(even.win, even.loss);
        assert!(even.draw > 0 && even.draw < 100, "{even:?}");
        // Far ahead is nearly won.
        assert!(Wdl::of_centipoints(5000).win > 990);
    }
}
