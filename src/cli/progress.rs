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
            "{{bar:30}} {{human_pos}}/{{human_len}} {unit}, {{per_sec}}, {{eta}} left"
        ))
        .expect("the template is well formed")
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
