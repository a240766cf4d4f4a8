#!/usr/bin/env bash
# The players' strength table of docs/PLAYERS.md: on each game, alphabeta at depth 4 against
# greedy and mcts with 1000 playouts against random, seats swapped every other game, seeded.
# Prints one markdown row per pairing: wins of the first player, their share with its 95%
# interval, draws, and the time taken.
# Usage: benches/strength.sh [GAMES_PER_PAIRING] [RULES_FILE...]   (default 200, about twenty
# minutes; every game but Reversi Go 13x13 and 19x19, whose alphabeta games take minutes each)
# PAIRINGS="A,B C,D" sets other pairings, e.g. PAIRINGS="alphabeta:4,alphabeta:4:0" for the
# exact endgame against the same search without it.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  for f in games/*.rules; do
    case $f in *reversi-go-13x13*|*reversi-go-19x19*) continue ;; esac
    files+=("$f")
  done
fi
cargo build --profile dist --quiet
echo "| game | pairing | wins | share (95% CI) | draws | seconds |"
echo "|---|---|---|---|---|---|"
for f in "${files[@]}"; do
  for pair in ${PAIRINGS:-alphabeta:4,greedy mcts:1000,random}; do
    first=${pair%%,*}
    out=$(./target/dist/outflank run "$f" --games "$games" --agents "$pair" --swap --seed 1)
    row=$(echo "$out" | sed -n "s/^$first: \([0-9]*\) wins\?, \([0-9.]*\)% (95% CI \(.*\))/\1 | \2% (\3)/p")
    draws=$(echo "$out" | sed -n 's/^draws: \([0-9]*\).*/\1/p')
    secs=$(echo "$out" | sed -n 's/.*games\/s (\(.*\) s)/\1/p')
    echo "| $(basename "$f" .rules) | ${pair/,/ vs } | $row | $draws | $secs |"
  done
done
