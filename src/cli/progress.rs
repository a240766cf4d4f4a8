//! Progress bars for long commands: done, total, rate and time left, on standard error, drawn
//! only for a person watching (a terminal), so piped output and logs stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` units of work, hidden unless `show`.
pub(super) struct Progress(ProgressBar);

impl Progress {
    pub(super) fn new(show: bool, total: u64, unit: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(
            Some(total),
            if show {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        let style = ProgressStyle::with_template(&format!(
            "{{bar:30}} {{human_pos}}/{{human_len}} {unit}, {{rate}}, {{eta}} left"
        ))
        .expect("the template is well formed")
        // The rate to the figures that mean something: 5,380/s, 29/s, 0.4/s.
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let r = state.per_sec();
                let _ = if r >= 10.0 {
                    write!(w, "{r:.0}/s")
                } else {
                    write!(w, "{r:.1}/s")
                };
            },
        )
        .progress_chars("##.");
        bar.set_style(style);
        Progress(bar)
    }

    /// `done` units are finished.
    pub(super) fn set(&self, done: u64) {
        self.0.set_position(done);
    }
}

impl Drop for Progress {
    // The bar goes when the work ends, so the output that follows starts on a clean line.
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
