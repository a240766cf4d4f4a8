//! The board model's sets: every width agrees with the widest set cell by cell, floods
//! follow orthogonal steps, shifts across words drop what leaves, the split lanes shift as
//! integers do, and each player's pieces keep their own cells.

use outflank::board::bits::{shift_words, Bits, MAX_CELLS, WORDS};
use outflank::board::pieces::Pieces;
use outflank::board::sets::{flood, flood_cell, Board, Floodable, Lanes, Split, Wide};

// Sets of every width, and floods.
fn round_trip<B: Board>() {
    let mut bits = Bits::EMPTY;
    for c in [0, 1, 7, 8, 35, 63, B::CELLS - 1] {
        bits.insert(c);
    }
    let b = B::from_bits(&bits);
    assert_eq!(b.to_bits(), bits);
    assert_eq!(b.count(), bits.count());
    let cells: Vec<usize> = bits.iter().collect();
    assert_eq!(b.cells().collect::<Vec<_>>(), cells);
    let mut each = Vec::new();
    b.each_cell(|c| each.push(c));
    assert_eq!(each, cells);
    for (k, &c) in cells.iter().enumerate() {
        assert_eq!(b.nth(k), c);
        assert!(b.contains(c));
    }
    assert_eq!(B::single(5).shifted(3), B::single(8));
    assert_eq!(B::single(5).shifted(-5), B::single(0));
    assert!(B::single(5).shifted(-6).is_empty());
    assert_eq!(B::single(5).up(B::amount(3)), B::single(8));
    assert_eq!(B::single(5).down(B::amount(5)), B::single(0));
    assert_eq!(b.lowest_bit(), B::single(0));
    assert_eq!(b.highest_bit(), B::single(B::CELLS - 1));
    assert_eq!(B::EMPTY.highest_bit(), B::EMPTY);
    assert_eq!(B::single(3).below().count(), 3);
    // Rotations within the first n cells, against cell arithmetic.
    for n in [36u32, 64, B::CELLS as u32] {
        let set = (B::single(0) | B::single(5) | B::single(n as usize - 1)).rotated(0, n);
        for by in [0, 1, 7, n - 1] {
            let want = [0, 5, n - 1]
                .iter()
                .fold(B::EMPTY, |w, &c| w | B::single(((c + by) % n) as usize));
            assert_eq!(set.rotated(by, n), want, "rotated by {by} within {n}");
        }
    }
}

#[test]
fn flood_follows_orthogonal_steps_only() {
    // A 4 x 4 board, cell = 4 * row + column.
    let steps = [(0x7777u64, 1), (0xeeee, -1), (0x0fff, 4), (0xfff0, -4)];
    let cells = |list: &[usize]| list.iter().fold(0u64, |b, &c| b | 1 << c);
    // A winding group from the corner, and a pair on the last row that touches it only
    // diagonally (13 and 10) and across the board's edge (12 follows 11 in cell order).
    let group = cells(&[0, 1, 2, 6, 10, 11, 15]);
    let pair = cells(&[12, 13]);
    let within = group | pair;
    assert_eq!(flood(&steps, 1 << 0, within, 0), Some(group));
    assert_eq!(flood(&steps, 1 << 13, within, 0), Some(pair));
    assert_eq!(flood(&steps, 1 << 4, within, 0), Some(0));
    // None as soon as the part touches a cell of `stop_at`, even one far from the start.
    assert_eq!(flood(&steps, 1 << 0, within, cells(&[14])), None);
    assert_eq!(flood(&steps, 1 << 13, within, cells(&[3, 10])), Some(pair));
    assert_eq!(flood(&steps, 1 << 13, within, cells(&[8])), None);
}

#[test]
fn flood_from_a_cell_agrees_with_the_layered_flood() {
    // A 19 x 19 board in six words, cell = 19 * row + column; sets drawn by a fixed
    // generator at densities where groups are large and liberties rare.
    const W: i32 = 19;
    let board = |f: &dyn Fn(i32, i32) -> bool| {
        (0..W * W).fold(Wide::<6>::EMPTY, |b, c| {
            if f(c / W, c % W) {
                b | Wide::single(c as usize)
            } else {
                b
            }
        })
    };
    let steps = [
        (board(&|_, c| c < W - 1), 1),
        (board(&|_, c| c > 0), -1),
        (board(&|r, _| r < W - 1), W),
        (board(&|r, _| r > 0), -W),
    ];
    let around: Vec<Wide<6>> = (0..(W * W) as usize)
        .map(|c| {
            steps.iter().fold(Wide::EMPTY, |out, &(from, k)| {
                out | (Wide::single(c) & from).shifted(k)
            })
        })
        .collect();
    let seed = std::cell::Cell::new(0x2545_f491_4f6c_dd1du64);
    let draw = |percent: u64| {
        board(&|_, _| {
            let mut x = seed.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            seed.set(x);
            x % 100 < percent
        })
    };
    for round in 0..200 {
        let within = draw(55 + round % 40);
        let stop_at = draw(round % 5) & !within;
        for start in [0, 18, 180, 342, 360, (round * 37) as usize % 361] {
            assert_eq!(
                flood_cell(&steps, &around, start, within, stop_at),
                flood(&steps, Wide::single(start), within, stop_at),
                "round {round}, start {start}"
            );
        }
    }
}

#[test]
fn wide_sets_move_cell_by_cell() {
    let cells = [0, 1, 63, 64, 65, 127, 128, 200, 300, 383];
    let mut bits = Bits::EMPTY;
    for c in cells {
        bits.insert(c);
    }
    let wide = Wide::<6>::from_bits(&bits);
    assert_eq!(wide.to_bits(), bits);
    for k in [
        0, 1, -1, 19, -19, 63, -63, 64, -64, 65, -65, 130, -130, 383, -383, 384,
    ] {
        // Each cell moved on its own; those that leave the 384 cells drop.
        let mut expected = Bits::EMPTY;
        for c in cells {
            let to = c as i32 + k;
            if (0..384).contains(&to) {
                expected.insert(to as usize);
            }
        }
        assert_eq!(wide.moved(k).to_bits(), expected, "moved by {k}");
        // The full-width sets move the same way within their first 384 cells.
        let mut wide_bits = bits.shifted(k);
        for c in 384..MAX_CELLS {
            wide_bits.remove(c);
        }
        assert_eq!(wide_bits, expected, "Bits moved by {k}");
    }
}

#[test]
fn integer_boards_agree_with_wide_sets() {
    round_trip::<u64>();
    round_trip::<u128>();
    round_trip::<Wide<2>>();
    round_trip::<Wide<3>>();
    round_trip::<Wide<6>>();
    round_trip::<Wide<{ WORDS }>>();
}

// The pieces of several players.

#[test]
fn each_player_keeps_their_own_cells() {
    // Eight players on the largest board they may share: each set keeps its cells.
    let cells = Pieces::most_cells(8);
    assert_eq!(cells, 192);
    let mut pieces = Pieces::new(8, cells);
    for p in 0..8 {
        let set = Bits::single(p * 23).union(&Bits::single(cells - 1 - p));
        pieces.set(p, &set);
    }
    for p in 0..8 {
        assert_eq!(
            pieces.of(p),
            Bits::single(p * 23).union(&Bits::single(cells - 1 - p))
        );
        assert_eq!(pieces.owner(p * 23), Some(p as u8));
    }
    assert_eq!(pieces.owner(1), None);
    assert_eq!(pieces.of(8), Bits::EMPTY);
    assert!(!Pieces::fits(8, cells + 1));
    assert!(Pieces::fits(2, 26 * 26) && Pieces::fits(4, 19 * 19) && !Pieces::fits(4, 20 * 20));
}

#[test]
fn pieces_compare_by_every_set_and_equal_ones_hash_alike() {
    use std::hash::{BuildHasher, RandomState};
    // Equality and hashing read only the words the slots use: a cell in any slot's last
    // word, or the last slot's, must still tell two blocks apart.
    let hasher = RandomState::new();
    for (players, cells) in [(2, 36), (2, 26 * 26), (3, 100), (8, 192)] {
        let base = Pieces::new(players, cells);
        assert!(base == Pieces::new(players, cells));
        for p in 0..players {
            for cell in [0, 63.min(cells - 1), cells / 2, cells - 1] {
                let mut one = base;
                one.set(p, &Bits::single(cell));
                let mut same = base;
                same.set(p, &Bits::single(cell));
                assert!(
                    one != base,
                    "{players} players, {cells} cells: {p} at {cell}"
                );
                assert!(one == same);
                assert_eq!(hasher.hash_one(one), hasher.hash_one(same));
                // The same cell in another slot is another position.
                let mut other = base;
                other.set((p + 1) % players, &Bits::single(cell));
                assert!(one != other);
            }
        }
    }
    // Blocks of other shapes differ even with no pieces at all.
    assert!(Pieces::new(2, 36) != Pieces::new(3, 36));
    assert!(Pieces::new(2, 36) != Pieces::new(2, 100));
}

// Shifts of whole word arrays.

/// Bit by bit: bit i of the input becomes bit i + k, if that is inside the words.
fn shifted_bit_by_bit<const N: usize>(w: &[u64; N], k: i32) -> [u64; N] {
    let mut out = [0u64; N];
    for i in 0..64 * N as i32 {
        let j = i + k;
        if w[i as usize / 64] >> (i % 64) & 1 == 1 && (0..64 * N as i32).contains(&j) {
            out[j as usize / 64] |= 1 << (j % 64);
        }
    }
    out
}

#[test]
fn shifts_within_and_across_words_drop_what_leaves() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut words = [0u64; 6];
    for w in &mut words {
        x = x.rotate_left(17).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        *w = x;
    }
    // Steps of a neighbour (under a word), whole words, more than a word, and off the end.
    for k in [
        0, 1, -1, 19, -19, 20, -20, 63, -63, 64, -64, 65, -65, 130, -130, 383, -383, 384,
    ] {
        assert_eq!(
            shift_words(&words, k),
            shifted_bit_by_bit(&words, k),
            "k = {k}"
        );
        let two = [words[0], words[1]];
        assert_eq!(shift_words(&two, k), shifted_bit_by_bit(&two, k), "k = {k}");
    }
}

// Four sets stepped together.

/// The split lanes shift exactly as 128-bit integers do, for every amount they take, both
/// ways; an unused lane (amount 0) is masked away.
#[test]
fn split_lanes_shift_as_integers() {
    let sets = [
        0x8000_0000_0000_0001_8000_0000_0000_0001u128,
        u128::MAX,
        0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        1 << 64 | 1 << 63,
    ];
    let within = [u128::MAX, u128::MAX >> 3, !0xff00u128, 0];
    assert!(Split::amounts([1, 2, 64, 0]).is_none());
    for k in 1..64u32 {
        let amounts = [k, k % 63 + 1, (k * 7) % 63 + 1, 0];
        let by = Split::amounts(amounts).expect("amounts below a word");
        for up in [true, false] {
            let got = Split::from_sets(sets)
                .shift(&by, up, Split::from_sets(within))
                .sets();
            for i in 0..4 {
                let want = if up {
                    sets[i] << amounts[i]
                } else {
                    sets[i] >> amounts[i]
                } & within[i];
                assert_eq!(got[i], want, "lane {i} by {} up {up}", amounts[i]);
            }
        }
    }
}
