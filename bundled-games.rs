// The games `outflank serve` offers when given no files, built into the binary
// (src/cli/serve/games.rs includes this list; tests/serve.rs checks that it names every file
// of games/). The page opens on the first: the standard game.
&[
    ("othello.rules", include_str!("games/othello.rules")),
    ("anti-othello.rules", include_str!("games/anti-othello.rules")),
    ("ataxx-blocked.rules", include_str!("games/ataxx-blocked.rules")),
    ("ataxx.rules", include_str!("games/ataxx.rules")),
    ("cylinder-othello.rules", include_str!("games/cylinder-othello.rules")),
    ("gravity-othello.rules", include_str!("games/gravity-othello.rules")),
    ("hex-reversi.rules", include_str!("games/hex-reversi.rules")),
    ("octagon-othello.rules", include_str!("games/octagon-othello.rules")),
    ("reversi-10x10.rules", include_str!("games/reversi-10x10.rules")),
    ("reversi-6x6.rules", include_str!("games/reversi-6x6.rules")),
    ("reversi-8x8.rules", include_str!("games/reversi-8x8.rules")),
    ("reversi-go-13x13.rules", include_str!("games/reversi-go-13x13.rules")),
    ("reversi-go-19x19.rules", include_str!("games/reversi-go-19x19.rules")),
    ("reversi-go-9x9.rules", include_str!("games/reversi-go-9x9.rules")),
    ("rolit-3-neutral.rules", include_str!("games/rolit-3-neutral.rules")),
    ("rolit-3.rules", include_str!("games/rolit-3.rules")),
    ("rolit.rules", include_str!("games/rolit.rules")),
    ("torus-othello.rules", include_str!("games/torus-othello.rules")),
    ("vect-reverse-corner-lock.rules", include_str!("games/vect-reverse-corner-lock.rules")),
    ("vect-reverse-handicap.rules", include_str!("games/vect-reverse-handicap.rules")),
    ("vect-reverse.rules", include_str!("games/vect-reverse.rules")),
    ("verto-8x8.rules", include_str!("games/verto-8x8.rules")),
    ("verto-9x9.rules", include_str!("games/verto-9x9.rules")),
    ("verto-orthogonal.rules", include_str!("games/verto-orthogonal.rules")),
]
