/* A yardstick for outflank's speed: standard 8x8 Othello written by hand for one board size,
 * with 64-bit boards, so that benches/vs-reference.sh can say how close the generic engine
 * comes to a program that knows its game. It plays random games and counts perft the way
 * outflank does: a pass is a ply, a finished game is one leaf, and the last ply is counted by
 * the number of moves generated.
 *
 *   reference-othello playouts SECONDS
 *   reference-othello perft DEPTH
 *
 * Cell (x, y) is bit y * 8 + x, with x = 0 the a-file and y = 0 the first row. */

#include <inttypes.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t board;

/* Runs along a row or a diagonal may not pass the a- or h-file: the opponent's discs there are
 * left out of the runs, so that a shift by 1, 7 or 9 never carries a cell round an edge. */
#define INNER 0x7e7e7e7e7e7e7e7eULL

/* The four directions one way (east, north, and the two diagonals) as four lanes of one vector,
 * each shifted by its own amount: one vector shift does a step in all four, and the other
 * four directions are the same shifts to the right. */
typedef uint64_t lanes __attribute__((vector_size(32)));
static const lanes STEP = {1, 8, 7, 9};
static const lanes DOUBLE_STEP = {2, 16, 14, 18};
static const lanes KEEP = {INNER, ~0ULL, INNER, INNER};

static inline board joined(lanes v) { return v[0] | v[1] | v[2] | v[3]; }

/* Per lane, the up to six discs of `runs` in a row from `from`: two single steps, then two
 * double ones over pairs of such discs; `<<` one way and `>>` the other. */
#define RUNS(from, runs, SHIFT)                                   \
    ({                                                            \
        lanes t_ = runs & ((from) SHIFT STEP);                    \
        t_ |= runs & (t_ SHIFT STEP);                             \
        lanes pair_ = runs & (runs SHIFT STEP);                   \
        t_ |= pair_ & (t_ SHIFT DOUBLE_STEP);                     \
        t_ | (pair_ & (t_ SHIFT DOUBLE_STEP));                    \
    })

/* The empty cells where `me` may play: a run of the opponent's discs from one of mine ends
 * there. */
static inline board legal(board me, board opp) {
    lanes mine = {me, me, me, me}, runs = (lanes){opp, opp, opp, opp} & KEEP;
    board ends = joined(RUNS(mine, runs, <<) << STEP) | joined(RUNS(mine, runs, >>) >> STEP);
    return ends & ~(me | opp);
}

/* The opponent's discs that a disc of mine on `cell` turns over: in each direction, the run
 * next to it, if one of mine closes it. */
static inline board captured(board me, board opp, int cell) {
    board b = (board)1 << cell;
    lanes at = {b, b, b, b}, mine = {me, me, me, me};
    lanes runs = (lanes){opp, opp, opp, opp} & KEEP;
    lanes zero = {0, 0, 0, 0};
    lanes left = RUNS(at, runs, <<), right = RUNS(at, runs, >>);
    /* A lane's run counts when the cell past it is mine (-1 where true, 0 where false). */
    left &= (lanes)(((left << STEP) & mine) != zero);
    right &= (lanes)(((right >> STEP) & mine) != zero);
    return joined(left | right);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

/* xorshift64*: enough for picking random moves. */
static inline uint64_t next_random(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

/* The `n`th (from 0) set bit of `b`: one instruction where the CPU has BMI2. */
static inline int nth_cell(board b, int n) {
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64((board)1 << n, b));
#else
    while (n--) b &= b - 1;
    return __builtin_ctzll(b);
#endif
}

/* A random number below `n`, by multiplying rather than dividing. */
static inline int below(int n) {
    return (int)(((next_random() >> 32) * (uint64_t)n) >> 32);
}

static const board START_DARK = ((board)1 << (3 * 8 + 4)) | ((board)1 << (4 * 8 + 3));
static const board START_LIGHT = ((board)1 << (3 * 8 + 3)) | ((board)1 << (4 * 8 + 4));

/* One random game from the start; returns the number of moves played (passes included). */
static int random_game(void) {
    board me = START_DARK, opp = START_LIGHT;
    int plies = 0, passes = 0;
    while (passes < 2) {
        board moves = legal(me, opp);
        if (moves) {
            int cell = nth_cell(moves, below(__builtin_popcountll(moves)));
            board flips = captured(me, opp, cell);
            me |= flips | ((board)1 << cell);
            opp &= ~flips;
            passes = 0;
        } else {
            passes++;
        }
        board t = me;
        me = opp;
        opp = t;
        plies++;
    }
    return plies;
}

static uint64_t perft(board me, board opp, int depth) {
    if (depth == 0) return 1;
    board moves = legal(me, opp);
    if (!moves) {
        if (!legal(opp, me)) return 1; /* the game is over: a leaf */
        return depth == 1 ? 1 : perft(opp, me, depth - 1);
    }
    if (depth == 1) return (uint64_t)__builtin_popcountll(moves);
    uint64_t total = 0;
    for (; moves; moves &= moves - 1) {
        int cell = __builtin_ctzll(moves);
        board flips = captured(me, opp, cell);
        total += perft(opp & ~flips, me | flips | ((board)1 << cell), depth - 1);
    }
    return total;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "playouts") && strcmp(argv[1], "perft"))) {
        fprintf(stderr, "usage: %s playouts SECONDS | perft DEPTH\n", argv[0]);
        return 2;
    }
    double began = now();
    if (!strcmp(argv[1], "playouts")) {
        double seconds = atof(argv[2]);
        uint64_t games = 0, plies = 0;
        while (now() - began < seconds) {
            for (int i = 0; i < 1000; i++) plies += (uint64_t)random_game();
            games += 1000;
        }
        double spent = now() - began;
        printf("reference: %" PRIu64 " playouts (%.1f plies each) in %.2f s: %.0f playouts/s (wall)\n",
               games, (double)plies / (double)games, spent, (double)games / spent);
    } else {
        int depth = atoi(argv[2]);
        uint64_t leaves = perft(START_DARK, START_LIGHT, depth);
        double spent = now() - began;
        printf("reference: perft %d = %" PRIu64 " leaves in %.2f s: %.2f M leaves/s (wall)\n",
               depth, leaves, spent, (double)leaves / spent / 1e6);
    }
    return 0;
}
