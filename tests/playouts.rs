//! Random steps and playouts: only legal steps, uniform among them, also
//! when options must be tried (drawn without replacement until one passes its `require`).

use crate::common::{engine, engine_from};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use std::collections::HashMap;

#[test]
fn tried_options_are_drawn_uniformly_among_the_legal_ones() {
    // Seven of nine candidates fail their trial; the two legal ones must come up evenly.
    let e = engine_from(
        r#"
        board 3 x 3
        player black 'B'
        player white 'W'
        turn {
          choose c in empty {
            place c
            require c in cells(a1, c3)
          }
        }
        end when blocked
        score p = count(p)
        "#,
    );
    let s = e.start().unwrap();
    let mut legal = Vec::new();
    e.steps(&s, &mut legal).unwrap();
    assert_eq!(legal.len(), 2);
    let mut rng = Rng::new(9);
    let mut seen: HashMap<_, u32> = HashMap::new();
    for _ in 0..4000 {
        let step = e.random_step(&s, &mut rng).unwrap().unwrap();
        *seen.entry(step).or_default() += 1;
    }
    assert_eq!(seen.len(), 2, "only legal steps: {seen:?}");
    for (step, n) in seen {
        assert!(legal.contains(&step));
        assert!(
            (1800..2200).contains(&n),
            "{step:?} drawn {n} times of 4000"
        );
    }
}

#[test]
fn random_steps_are_legal_in_reversi_go() {
    // Suicide makes some empty cells illegal; every drawn step must be in the legal list.
    let e = engine("games/reversi-go-9x9.rules", &[]);
    let mut legal = Vec::new();
    let mut checked = 0;
    for game in 0..20 {
        let mut rng = Rng::new(game_seed(4, game));
        let mut s = e.start().unwrap();
        while let Some(step) = e.random_step(&s, &mut rng).unwrap() {
            e.steps(&s, &mut legal).unwrap();
            assert!(legal.contains(&step), "game {game}, turn {}", s.turn);
            s = e.apply(&s, step).unwrap();
            checked += 1;
        }
        assert!(s.is_over());
    }
    assert!(checked > 1000);
}

#[test]
fn playouts_play_the_steps_random_step_draws() {
    // Playouts keep each trial as the play; they must still follow random_step's draws.
    let e = engine("games/reversi-go-9x9.rules", &[]);
    for game in 0..10 {
        let (fast, n) = e
            .random_playout(&e.start().unwrap(), &mut Rng::new(game), u64::MAX)
            .unwrap();
        let mut rng = Rng::new(game);
        let mut s = e.start().unwrap();
        let mut m = 0;
        while let Some(step) = e.random_step(&s, &mut rng).unwrap() {
            s = e.apply(&s, step).unwrap();
            m += 1;
        }
        assert_eq!(
            (fast.pieces, fast.outcome, n),
            (s.pieces, s.outcome, m),
            "game {game}"
        );
    }
}
