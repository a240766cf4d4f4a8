//! A series split into shards (`analyse --shard K/N`) run as separate processes, merged by
//! `outflank merge`, equals the series played by one process, byte for byte: the report (as
//! JSON and as text) and the records. The recipes of deploy/ are run as they would run on
//! their schedulers, on this machine: the Kubernetes manifest's command for every index, the
//! Slurm array script with the variables Slurm sets, and the GNU parallel script over `:`.

use crate::common::run::{outflank, stderr, stdout, temp};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_outflank");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The series every test splits: Othello 6x6 between a random and a greedy player.
const SERIES: [&str; 9] = [
    "games/othello.rules",
    "--set",
    "size=6",
    "--games",
    "40",
    "--seed",
    "5",
    "--agents",
    "random,greedy",
];

/// A fresh folder for one test.
fn folder(name: &str) -> String {
    let dir = temp("scaling", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn with(args: &[&str]) -> Vec<String> {
    SERIES.iter().chain(args).map(|s| s.to_string()).collect()
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = outflank(&args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// The whole series in one process: its JSON report, its text report and its records.
fn one_process(dir: &str) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let records = format!("{dir}/one.jsonl");
    let mut args = vec!["analyse".to_string()];
    args.extend(with(&["--json", "--record", &records]));
    let json = run(&args).stdout;
    let mut args = vec!["analyse".to_string()];
    args.extend(with(&[]));
    let text = run(&args).stdout;
    (json, text, std::fs::read(&records).unwrap())
}

/// Shard `k` of `n`, written by its own process to a file of `dir`.
fn shard(dir: &str, k: u32, n: u32) -> std::process::Child {
    let file = std::fs::File::create(format!("{dir}/shard-{k}.jsonl")).unwrap();
    Command::new(BIN)
        .arg("analyse")
        .args(SERIES)
        .args(["--shard", &format!("{k}/{n}")])
        .current_dir(ROOT)
        .stdout(file)
        .spawn()
        .unwrap()
}

fn merge(files: &[String], extra: &[&str]) -> Output {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(extra);
    outflank(&args)
}

/// The merged report and records are one process's, whatever order the shards come in.
fn assert_merges_to_one_run(dir: &str, files: &[String]) {
    let (json, text, records) = one_process(dir);
    let merged_records = format!("{dir}/merged.jsonl");
    let o = merge(files, &["--json", "--record", &merged_records]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), String::from_utf8(json).unwrap());
    assert_eq!(std::fs::read(&merged_records).unwrap(), records);
    let mut reversed = files.to_vec();
    reversed.reverse();
    let o = merge(&reversed, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), String::from_utf8(text).unwrap());
}

#[test]
fn four_shard_processes_merge_into_one_run() {
    let dir = folder("four");
    let children: Vec<_> = (1..=4).map(|k| shard(&dir, k, 4)).collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    // Each shard holds its quarter of the games: a head, ten games, the last line.
    for k in 1..=4 {
        let text = std::fs::read_to_string(format!("{dir}/shard-{k}.jsonl")).unwrap();
        assert_eq!(text.lines().count(), 12, "shard {k}");
    }
    let files: Vec<String> = [3, 1, 4, 2]
        .iter()
        .map(|k| format!("{dir}/shard-{k}.jsonl"))
        .collect();
    assert_merges_to_one_run(&dir, &files);
}

/// What merge refuses, each with a message that says what is wrong.
#[test]
fn merge_refuses_what_does_not_fit() {
    let dir = folder("refused");
    for (k, n) in [(1, 4), (2, 4), (3, 4), (4, 4), (1, 2)] {
        let file = std::fs::File::create(format!("{dir}/shard-{k}-of-{n}.jsonl")).unwrap();
        let status = Command::new(BIN)
            .arg("analyse")
            .args(SERIES)
            .args(["--shard", &format!("{k}/{n}")])
            .current_dir(ROOT)
            .stdout(file)
            .status()
            .unwrap();
        assert!(status.success());
    }
    let path = |k: u32, n: u32| format!("{dir}/shard-{k}-of-{n}.jsonl");
    // A shard of the same series on other rules (a parameter changed).
    let other = format!("{dir}/other.jsonl");
    let mut args = vec!["analyse".to_string()];
    args.extend(with(&["--shard", "4/4"]));
    args[3] = "size=8".into();
    std::fs::write(&other, run(&args).stdout).unwrap();
    let refused = |files: &[String], says: &[&str]| {
        let o = merge(files, &[]);
        assert!(!o.status.success(), "{files:?}");
        let e = stderr(&o);
        for s in says {
            assert!(e.contains(s), "{files:?}: wanted `{s}` in: {e}");
        }
    };
    refused(
        &[path(1, 4), path(2, 4), path(3, 4), other.clone()],
        &["other parameters (size=8", "shards of one series only"],
    );
    // A shard of another rules file altogether.
    let anti = format!("{dir}/anti.jsonl");
    let mut args = vec!["analyse".to_string()];
    args.extend(with(&["--shard", "4/4"]));
    args[1] = "games/anti-othello.rules".into();
    std::fs::write(&anti, run(&args).stdout).unwrap();
    refused(
        &[path(1, 4), path(2, 4), path(3, 4), anti],
        &["anti.jsonl: other rules (rules hash"],
    );
    refused(
        &[path(1, 4), path(2, 4), path(3, 4), path(4, 4), path(1, 2)],
        &["overlap: both hold games 1-10 (the same seeds)"],
    );
    refused(
        &[path(1, 4), path(2, 4), path(2, 4), path(3, 4), path(4, 4)],
        &["hold the same games (games 11-20): the same shard given twice"],
    );
    refused(
        &[path(1, 4), path(2, 4), path(4, 4)],
        &["games 21-30 of the 40 missing (shard 3/4)"],
    );
    // A shard whose process stopped early has no last line.
    let cut = format!("{dir}/cut.jsonl");
    let text = std::fs::read_to_string(path(3, 4)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, lines[..lines.len() - 3].join("\n") + "\n").unwrap();
    refused(
        &[path(1, 4), path(2, 4), cut, path(4, 4)],
        &["shard 3/4 is incomplete: 8 of its 10 games"],
    );
    // Not a shard at all: a records file.
    let records = format!("{dir}/records.jsonl");
    let mut args = vec!["run".to_string()];
    args.extend(with(&["--record", &records]));
    run(&args);
    refused(&[records], &["not a shard"]);
    // Missing shards are allowed when asked: the report covers the games given.
    let o = merge(
        &[path(1, 4), path(2, 4), path(4, 4)],
        &["--allow-missing", "--json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("games 21-30 are missing"));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["games"], 30);
}

/// Shard K of N holds games (K-1)G/N to KG/N: every game once, also when N does not divide G.
#[test]
fn shards_cover_every_game_once() {
    use outflank::apps::shards::Shard;
    for games in [0u64, 1, 7, 40, 1001] {
        for of in [1u64, 2, 3, 7, 16] {
            let mut next = 0;
            for index in 1..=of {
                let r = Shard { index, of }.games(games);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, games);
        }
    }
    for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let o = outflank(&["analyse", "games/othello.rules", "--shard", "5/4"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("K from 1 to N"), "{}", stderr(&o));
}

/// The Kubernetes recipe: an Indexed Job of `completions` pods, each running the shard its
/// index names. The manifest is read as YAML and its container's command run for every index
/// as Kubernetes would (JOB_COMPLETION_INDEX from 0), on this machine: the paths of the image
/// become this repository's and a temporary folder, and the study a small one.
#[test]
fn the_kubernetes_recipe_runs_every_shard() {
    use yaml_rust2::YamlLoader;
    let text =
        std::fs::read_to_string(format!("{ROOT}/deploy/kubernetes/analyse-job.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let job = &docs[0];
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(job["kind"].as_str(), Some("Job"));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_i64().unwrap();
    let container = &spec["template"]["spec"]["containers"][0];
    assert_eq!(
        spec["template"]["spec"]["restartPolicy"].as_str(),
        Some("Never")
    );
    let script = container["args"][0].as_str().unwrap();
    assert_eq!(container["command"][0].as_str(), Some("sh"));
    assert!(script.contains("$((JOB_COMPLETION_INDEX + 1))"), "{script}");
    assert!(
        script.contains(&format!("--shard $shard/{completions}")),
        "the shard count in the command is not completions ({completions}): {script}"
    );
    let mount = container["volumeMounts"][0]["mountPath"].as_str().unwrap();
    assert_eq!(mount, "/results");

    let dir = folder("kubernetes");
    let games = (completions * 2).to_string();
    let local = script
        .replace("/games/", &format!("{ROOT}/games/"))
        .replace("/results/", &format!("{dir}/"))
        .replace("outflank ", &format!("{BIN} "));
    let local = regex_free_replace(&local, "--games ", &games);
    let local = regex_free_replace(&local, "--agents ", "random,greedy");
    let children: Vec<_> = (0..completions)
        .map(|index| {
            Command::new("sh")
                .args(["-c", &local])
                .env("JOB_COMPLETION_INDEX", index.to_string())
                .current_dir(ROOT)
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "{local}");
    }
    let files: Vec<String> = (1..=completions)
        .map(|k| format!("{dir}/shard-{k}.jsonl"))
        .collect();
    let o = merge(&files, &["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["games"].as_i64(), Some(completions * 2));
}

/// `text` with the word after `flag` replaced by `value`.
fn regex_free_replace(text: &str, flag: &str, value: &str) -> String {
    let at = text.find(flag).unwrap() + flag.len();
    let end = text[at..]
        .find(char::is_whitespace)
        .map_or(text.len(), |e| at + e);
    format!("{}{value}{}", &text[..at], &text[end..])
}

/// A recipe's script, set to play [`SERIES`] with this build and write its shards to `out`.
fn recipe(script: &str, out: &str) -> Command {
    let mut c = Command::new("bash");
    c.arg(script)
        .current_dir(ROOT)
        .env("RULES", "games/othello.rules")
        .env("ANALYSE", "--set size=6")
        .env("GAMES", "40")
        .env("SEED", "5")
        .env("AGENTS", "random,greedy")
        .env("OUT", out)
        .env("OUTFLANK", BIN);
    c
}

/// The Slurm recipe as two tasks of an array, with the variables Slurm sets.
#[test]
fn the_slurm_recipe_runs_as_an_array() {
    let dir = folder("slurm");
    for task in 0..2 {
        let o = recipe("deploy/slurm/analyse.sbatch", &dir)
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .output()
            .unwrap();
        assert!(o.status.success(), "task {task}: {}", stderr(&o));
    }
    let files: Vec<String> = (1..=2).map(|k| format!("{dir}/shard-{k}.jsonl")).collect();
    assert!(!std::path::Path::new(&format!("{dir}/shard-1.jsonl.part")).exists());
    assert_merges_to_one_run(&dir, &files);
}

/// The GNU parallel recipe over `:` (this machine, without ssh): its merged text report is
/// the one-process report.
#[test]
fn the_gnu_parallel_recipe_runs_its_shards() {
    let dir = folder("parallel");
    let o = recipe("deploy/parallel/analyse.sh", &dir)
        .env("HOSTS", ":")
        .env("SHARDS", "3")
        .output()
        .expect("GNU parallel runs this recipe: install it (Debian: apt install parallel)");
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, text, _) = one_process(&dir);
    assert_eq!(stdout(&o), String::from_utf8(text).unwrap());
}

/// FNV-1a (64 bits), written here from its definition, to forge chains as a careful editor
/// could.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A shard's lines with their chains computed again, as if nobody had edited them.
fn rechained(text: &str) -> String {
    let mut previous = 0u64;
    let mut out = String::new();
    for line in text.lines() {
        let at = line.rfind(",\"chain\":\"").unwrap();
        let body = format!("{}}}", &line[..at]);
        let mut bytes = previous.to_le_bytes().to_vec();
        bytes.extend(body.as_bytes());
        previous = fnv(&bytes);
        out += &format!("{}{:016x}\"}}\n", &line[..at + 10], previous);
    }
    out
}

/// Each kind of edit to a shard's lines (issue 83, R4) is refused, naming the line and the game:
/// a winner flipped, moves cut, a rules hash changed, a line removed, a head that names no
/// split. An edit whose chains were forged again passes the chain, and `--verify`, which
/// replays every record, refuses it.
#[test]
fn merge_refuses_each_edited_line_and_verify_replays_every_record() {
    let dir = folder("edited");
    let path = |k: u32| format!("{dir}/shard-{k}.jsonl");
    let children: Vec<_> = (1..=2).map(|k| shard(&dir, k, 2)).collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let o = merge(&[path(1), path(2)], &["--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("verified: 40 games replayed"),
        "{}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(path(1)).unwrap();
    let lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 3 of the file holds game 2.
    let game_two = &lines[2];
    assert!(
        game_two.starts_with("{\"game\":{\"index\":1,"),
        "{game_two}"
    );
    let winner = if game_two.contains("\"winner\":0,") {
        ("\"winner\":0,", "\"winner\":1,")
    } else {
        ("\"winner\":1,", "\"winner\":0,")
    };
    let moves_end = game_two.find("],\"result\"").unwrap();
    let last_move = game_two[..moves_end].rfind(",\"").unwrap();
    let cut_moves = format!("{}{}", &game_two[..last_move], &game_two[moves_end..]);
    let edits: Vec<(&str, Vec<String>, &str)> = vec![
        (
            "the winner flipped",
            vec![game_two.replacen(winner.0, winner.1, 1)],
            "edited.jsonl:3: game 2 was changed after the shard was written",
        ),
        (
            "the last move cut",
            vec![cut_moves.clone()],
            "edited.jsonl:3: game 2 was changed",
        ),
        (
            "the rules hash changed",
            vec![game_two.replacen("tokens-fnv1a64:", "tokens-fnv1a64:0", 1)],
            "edited.jsonl:3: game 2 was changed",
        ),
        (
            "the line removed",
            vec![],
            "edited.jsonl:3: game 3 where the shard's game 2 belongs",
        ),
    ];
    let edited = format!("{dir}/edited.jsonl");
    for (what, replacement, says) in edits {
        let mut changed = lines.clone();
        changed.splice(2..3, replacement);
        std::fs::write(&edited, changed.join("\n") + "\n").unwrap();
        let o = merge(&[edited.clone(), path(2)], &[]);
        assert!(!o.status.success(), "{what}: merged");
        assert!(stderr(&o).contains(says), "{what}: {}", stderr(&o));
    }
    // Heads that name no split, chained again so that only the numbers are wrong.
    for (head, says) in [
        (
            "\"index\":1,\"of\":0,",
            "names shard 1/0, which no split has",
        ),
        (
            "\"index\":9,\"of\":4,",
            "names shard 9/4, which no split has",
        ),
        (
            "\"index\":1,\"of\":4,",
            "but shard 1/4 of 40 games holds games 1-10",
        ),
    ] {
        let forged = text.replacen("\"index\":1,\"of\":2,", head, 1);
        assert_ne!(forged, text);
        std::fs::write(&edited, rechained(&forged)).unwrap();
        let o = merge(&[edited.clone(), path(2)], &[]);
        assert!(!o.status.success(), "{head}: merged");
        assert!(stderr(&o).contains(says), "{head}: {}", stderr(&o));
    }
    // Edits with their chains forged again: the chain cannot tell, the replay can.
    for (what, line, says) in [
        (
            "the winner flipped",
            game_two.replacen(winner.0, winner.1, 1),
            "game 2: the winner its summary gives is not what its moves give",
        ),
        (
            "the last move cut",
            cut_moves,
            "game 2: its record does not replay",
        ),
        (
            "the record's parameter changed",
            game_two.replacen(
                "\"params\":{\"size\":\"6\"}",
                "\"params\":{\"size\":\"8\"}",
                1,
            ),
            "game 2: its record sets other parameters or another start than its series",
        ),
    ] {
        let mut changed = lines.clone();
        assert_ne!(line, lines[2], "{what}: no edit");
        changed[2] = line;
        std::fs::write(&edited, rechained(&(changed.join("\n") + "\n"))).unwrap();
        let o = merge(&[edited.clone(), path(2)], &[]);
        assert!(o.status.success(), "{what}: {}", stderr(&o));
        let o = merge(&[edited.clone(), path(2)], &["--verify"]);
        assert!(!o.status.success(), "{what}: verified");
        assert!(stderr(&o).contains(says), "{what}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("1 of 40 games do not verify"),
            "{}",
            stderr(&o)
        );
    }
    // A shard of the format before chains merges, with a warning.
    let unchained: String = lines
        .iter()
        .map(|l| format!("{}}}\n", &l[..l.rfind(",\"chain\":\"").unwrap()]))
        .collect::<String>()
        .replacen("\"format\":2,", "\"format\":1,", 1);
    std::fs::write(&edited, unchained).unwrap();
    let o = merge(&[edited.clone(), path(2)], &["--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("whose lines carry no chain"),
        "{}",
        stderr(&o)
    );
}
