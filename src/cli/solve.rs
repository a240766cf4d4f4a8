//! `solve`: the exact result with best play.

use super::*;

// The options of `solve` (its help is the doc comment of `Command::Solve`).
#[derive(Args)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) game: GameArgs,
    #[arg(long, default_value = "")]
    pub(super) moves: String,
    #[arg(long)]
    pub(super) json: bool,
    /// Megabytes the solver's tables may take (16 to 1048576); a smaller table costs only
    /// repeated work.
    #[arg(long, value_name = "MB", default_value_t = (outflank::apps::solve::DEFAULT_MEMORY >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub(super) memory: u64,
}

pub(super) fn cmd_solve(a: &SolveArgs) -> Result<String, Failure> {
    let SolveArgs {
        game: ref args,
        moves: ref history,
        json,
        memory,
    } = *a;
    let engine = load_game(args)?;
    let s = position(&engine, args, history)?;
    let started = Instant::now();
    let memory = usize::try_from(memory << 20).unwrap_or(usize::MAX);
    let solution = outflank::apps::solve::solve(&engine, &s, memory)?;
    let seconds = started.elapsed().as_secs_f64();
    // The best line as whole turns.
    let mut turns: Vec<String> = Vec::new();
    for (st, step) in &solution.line {
        let text = engine.step_notation(st, *step);
        match turns.last_mut() {
            Some(last) if st.steps > 0 => last.push_str(&text),
            _ => turns.push(text),
        }
    }
    let end = &solution.end;
    if json {
        #[derive(serde::Serialize)]
        struct Solved {
            result: Option<ResultReport>,
            line: Vec<String>,
            nodes: u64,
            seconds: f64,
        }
        let report = PositionReport::new(&engine, end, Vec::new());
        let solved = Solved {
            result: report.result,
            line: turns,
            nodes: solution.nodes,
            seconds,
        };
        return Ok(serde_json::to_string_pretty(&solved).expect("plain data serializes") + "\n");
    }
    let mut out = String::new();
    outln!(out, "with best play: {}", result_line(&engine, end));
    outln!(out, "best line: {}", turns.join(" "));
    outp!(out, "{}", board_text(&engine, end));
    outln!(
        out,
        "{} positions searched in {seconds:.3} s",
        solution.nodes
    );
    Ok(out)
}
