//! The page in a real browser, continued (tests/browser.rs has the driver and the first
//! games): Reversi Go's button, replaying a record, the editor, an analysis, two computer
//! players, and a hexagonal board.

use super::browser::*;
use crate::common::serve::serve;
use fantoccini::key::Key;
use fantoccini::Locator;
use outflank::apps::record::Record;
use std::time::Duration;

/// Reversi Go's button is a word, not a cell: a button on the page; taking it adds half a
/// point to Black's score and passes the turn.
#[tokio::test(flavor = "multi_thread")]
async fn the_reversi_go_button() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "reversi-go-9x9").await;
    until(
        &client,
        "return document.querySelector('#words button[data-step=\"button\"]') !== null",
        "the button",
    )
    .await;
    let score = "return Number(document.querySelector('#scores tr:first-child td:nth-child(2)').textContent)";
    let before = run(&client, score).await.as_f64().unwrap();
    click(&client, "#words button[data-step='button']").await;
    until(
        &client,
        "return document.getElementById('status').textContent === 'white to move'",
        "white's turn",
    )
    .await;
    assert_eq!(run(&client, score).await.as_f64().unwrap(), before + 0.5);
    assert_eq!(
        run(
            &client,
            "return document.querySelector('#history li').textContent"
        )
        .await,
        "button"
    );
    until(
        &client,
        "return document.querySelector('#words button[data-step=\"button\"]') === null",
        "the button gone",
    )
    .await;
    screenshot(&client, "reversi-go-button").await;
    client.close().await.unwrap();
}

/// A records file written by `outflank run --record`, opened in Replay: stepping forward and
/// back, clicking a move in the list and jumping to either end show the positions the engine
/// in the test reaches.
#[tokio::test(flavor = "multi_thread")]
async fn replaying_a_record_forward_and_back() {
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("outflank-replay-{}.jsonl", std::process::id()));
    let o = crate::common::run::outflank(&[
        "run",
        "games/othello.rules",
        "--games",
        "2",
        "--seed",
        "5",
        "--record",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    let first: Record = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let engine = crate::common::engine("games/othello.rules", &[]);
    let mut positions = vec![engine.start().unwrap()];
    for m in &first.moves {
        let next = engine.play_history(positions.last().unwrap(), m).unwrap();
        positions.push(next);
    }
    let n = first.moves.len();

    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    click(&client, "#tabs button[data-tab='replay']").await;
    client
        .find(Locator::Css("#record-file"))
        .await
        .unwrap()
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
    let at =
        |k: usize| format!("return document.getElementById('where').textContent === '{k} / {n}'");
    until(&client, &at(0), "the record at its start").await;
    // Only now: the page reads the chosen file after the keys are sent, and a file taken away
    // before then cannot be read (the record never showed, once, under load).
    std::fs::remove_file(&file).unwrap();
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[0])
    );
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('#record-game option').length"
        )
        .await,
        2
    );
    for k in 1..=3 {
        click(&client, "#forward").await;
        until(&client, &at(k), "a step forward").await;
    }
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[3])
    );
    click(&client, "#back").await;
    until(&client, &at(2), "a step back").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[2])
    );
    click(&client, "#history li:nth-child(10)").await;
    until(&client, &at(10), "the tenth move").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[10])
    );
    screenshot(&client, "replay").await;
    click(&client, "#last").await;
    until(&client, &at(n), "the end").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[n])
    );
    let status = run(
        &client,
        "return document.getElementById('status').textContent",
    )
    .await;
    assert!(status.as_str().unwrap().contains("Game over"), "{status}");
    click(&client, "#first").await;
    until(&client, &at(0), "the start again").await;
    client.close().await.unwrap();
}

/// The editor: an error typed into the rules shows at its line (in the list and the line
/// numbers); taken out again, the rules check, and the edit is played at once.
#[tokio::test(flavor = "multi_thread")]
async fn an_error_typed_in_the_editor_then_fixed_and_played() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    click(&client, "#tabs button[data-tab='edit']").await;
    until(
        &client,
        "return document.getElementById('edit-state').textContent === 'the rules check'",
        "the rules loaded and checked",
    )
    .await;
    let text = std::fs::read_to_string(format!(
        "{}/games/othello.rules",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let line = text.lines().count() + 1;
    let area = client.find(Locator::Css("#rules-text")).await.unwrap();
    area.click().await.unwrap();
    let to_end = format!(
        "{}{}{}",
        char::from(Key::Control),
        char::from(Key::End),
        char::from(Key::Null)
    );
    area.send_keys(&to_end).await.unwrap();
    let typed = "end when nonsense_name > 0";
    area.send_keys(typed).await.unwrap();
    until(
        &client,
        &format!(
            "return document.querySelector('#diagnostics li.error[data-line=\"{line}\"]') !== null"
        ),
        "the error's diagnostic",
    )
    .await;
    let message = run(
        &client,
        "return document.querySelector('#diagnostics li.error').textContent",
    )
    .await;
    assert!(
        message.as_str().unwrap().contains("nonsense_name"),
        "{message}"
    );
    assert_eq!(
        run(
            &client,
            &format!("return document.querySelector('#gutter [data-line=\"{line}\"]').className")
        )
        .await,
        "error"
    );
    screenshot(&client, "edit-error").await;
    let erase: String = std::iter::repeat_n(char::from(Key::Backspace), typed.len()).collect();
    area.send_keys(&erase).await.unwrap();
    until(
        &client,
        "return document.getElementById('edit-state').textContent === 'the rules check'",
        "the rules to check again",
    )
    .await;
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('#diagnostics li').length"
        )
        .await,
        0
    );
    click(&client, "#play-edit").await;
    // The board before the edit also offered four moves: wait for the edit's own status, or
    // the check below can run before the page has switched.
    until(
        &client,
        "return document.getElementById('status').textContent === 'black to move (your edit)'",
        "the edit played",
    )
    .await;
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('[data-legal]').length"
        )
        .await,
        4
    );
    click_cell(&client, "d3").await;
    client.close().await.unwrap();
}

/// The Analyse view: 30 games between two computer players, the progress bar filled, wins per
/// seat that add up with the draws to the games played, how the games ended, the chart of the
/// first game and the charts of the series.
#[tokio::test(flavor = "multi_thread")]
async fn an_analysis_in_the_page() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    click(&client, "#tabs button[data-tab='analyse']").await;
    let games = client.find(Locator::Css("#analysis-games")).await.unwrap();
    games.clear().await.unwrap();
    games.send_keys("30").await.unwrap();
    client
        .find(Locator::Css("#analysis-seats select[data-player='white']"))
        .await
        .unwrap()
        .select_by_value("greedy")
        .await
        .unwrap();
    click(&client, "#analysis-start").await;
    until(&client, "return document.getElementById('analysis-state').textContent.startsWith('30 of 30 games, done')", "the analysis to end").await;
    assert_eq!(
        run(
            &client,
            "return document.getElementById('analysis-progress').value"
        )
        .await,
        30
    );
    let wins = run(&client, "return [...document.querySelectorAll('#analysis-table tr[data-player] td:nth-child(3)')].map(t => Number(t.textContent))").await;
    let draws = run(&client, "return Number([...document.querySelectorAll('#analysis-table tr')].find(r => r.cells[0].textContent === 'draws').cells[1].textContent)").await;
    let total: u64 = wins
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum::<u64>()
        + draws.as_u64().unwrap();
    assert_eq!(total, 30);
    let lead = run(&client, "return [...document.querySelectorAll('#analysis-table tr')].find(r => r.cells[0].textContent === 'lead changes').cells[1].textContent").await;
    assert!(lead.as_str().unwrap().ends_with("per game"), "{lead}");
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('#analysis-chart polyline').length"
        )
        .await,
        2
    );
    // How the games ended: Othello has one end rule, so it ended all 30.
    let ended = run(&client, "return [...document.querySelectorAll('#analysis-table tr')].find(r => r.cells[0].textContent === 'end when blocked').cells[1].textContent").await;
    assert!(ended.as_str().unwrap().starts_with("100.0%"), "{ended}");
    // The charts of `analyse --plots`, drawn by the server once the games are done: the
    // lengths' bars count every game.
    let charts = run(&client, "return [...document.querySelectorAll('#analysis-charts figure')].map(f => f.dataset.chart)").await;
    assert_eq!(charts, serde_json::json!(["lead", "lengths", "branching"]));
    let counted = run(&client, "return [...document.querySelectorAll('#analysis-charts figure[data-chart=lengths] rect.bar')].reduce((n, r) => n + Number(r.getAttribute('data-count')), 0)").await;
    assert_eq!(counted, 30);
    screenshot(&client, "analyse").await;
    client.close().await.unwrap();
}

/// Watch: two computer players play on by themselves; paused, they stop; Step plays exactly
/// one move; resumed, they go on.
#[tokio::test(flavor = "multi_thread")]
async fn watching_two_computer_players() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    client
        .find(Locator::Css("#speed"))
        .await
        .unwrap()
        .select_by_value("100")
        .await
        .unwrap();
    for seat in client
        .find_all(Locator::Css("#seats select"))
        .await
        .unwrap()
    {
        seat.select_by_value("random").await.unwrap();
    }
    let moves = "return document.querySelectorAll('#history li').length";
    until(
        &client,
        "return document.querySelectorAll('#history li').length >= 3",
        "the players to play",
    )
    .await;
    click(&client, "#pause").await;
    // A move asked for before the pause may still arrive; then nothing more.
    until(
        &client,
        "return !document.getElementById('next-step').disabled",
        "the pause",
    )
    .await;
    let paused = run(&client, moves).await.as_u64().unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        run(&client, moves).await.as_u64().unwrap(),
        paused,
        "paused players stay still"
    );
    click(&client, "#next-step").await;
    until(
        &client,
        &format!(
            "return document.querySelectorAll('#history li').length === {}",
            paused + 1
        ),
        "one step",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        run(&client, moves).await.as_u64().unwrap(),
        paused + 1,
        "Step plays one move"
    );
    click(&client, "#pause").await;
    until(
        &client,
        "return document.getElementById('status').textContent.startsWith('Game over')",
        "the game's end",
    )
    .await;
    screenshot(&client, "watch-end").await;
    client.close().await.unwrap();
}

/// A hexagonal board is clicked as a square one: its cells are hexagons, named by the server.
#[tokio::test(flavor = "multi_thread")]
async fn a_hexagonal_board_by_clicking() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "hex-reversi").await;
    until(
        &client,
        "return document.querySelector('polygon[data-legal]') !== null",
        "hexagons to click",
    )
    .await;
    let engine = crate::common::engine("games/hex-reversi.rules", &[]);
    let start = engine.start().unwrap();
    let mut legal = Vec::new();
    engine.steps(&start, &mut legal).unwrap();
    let mut want: Vec<String> = legal
        .iter()
        .filter_map(|&s| {
            engine
                .step_cell(&start, s)
                .map(|c| engine.game.geometry.name(c))
        })
        .collect();
    want.sort();
    assert_eq!(legal_cells(&client).await, want);
    click_cell(&client, &want[0]).await;
    let after = engine.play_history(&start, &want[0]).unwrap();
    assert_eq!(pieces_shown(&client).await, pieces_at(&engine, &after));
    screenshot(&client, "hex").await;
    client.close().await.unwrap();
}
