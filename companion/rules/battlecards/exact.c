/* The exact count of a battle's odds, compiled (count.py's Exact: the same recursion, the same arithmetic in
   the same order, so the same figures to the last bit; tests/test_battlecards_exact_compiled.py compares them).

   Why it exists: the count keeps a state for each alive set, step that fires and cards left by kind, and a
   battle of two units a side on a full deck meets 8,000-36,000 of them: 40-400 ms in Python, far over the
   5 ms a query the odds are allowed (issue 30), so such battles were simulated. Here a state costs a fraction
   of a microsecond.

   What Python hands over (compiled.py's CompiledExact): the alive sets under the ones asked, numbered
   densely, each with its outcome, its kinds of card and the refill by kind, the step that fires next from
   each step, and each firing step's shot (the kinds it hits, the alive set after a hit, its outcome there and
   each kind's kind there). The policy and the kinds are worked out in Python (count.PlayedBattle, kinds_of);
   only the count over the cards is here. Built with playout.c into one library (compiled.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MOST_KINDS = 10, KIND_BITS = 6 };   /* a state's cards packed in one word: up to 10 kinds of up to 63 */
enum { GOES_ON = -1 };

typedef struct {                    /* an alive set */
    int32_t outcome;                /* GOES_ON, else the aggressor's chance (0 or 1) */
    int32_t kinds;
    int32_t refill[MOST_KINDS];     /* the refill by kind */
    int32_t most;                   /* its kind of the most cards: packed lowest (see find) */
} alive_set;

typedef struct {                    /* the shot at a firing step of an alive set */
    int32_t hits;                   /* the kinds it hits, a bit each */
    int32_t after;                  /* the alive set after a hit (its number) */
    int32_t done;                   /* the outcome there (GOES_ON: the battle goes on) */
    int32_t proj[MOST_KINDS];       /* each kind here: its kind there (of the alive set's kinds there) */
} shot;

typedef struct {                    /* a state counted: (a, b, g), its value a + b X, X the value at the refill */
    uint64_t cards;
    double a, b;
    uint8_t taken, set, step;       /* taken 0: an empty slot (a table fresh from calloc is all empty) */
    int8_t g;
} slot;                             /* (32 bytes: at most 255 alive sets and 127 steps, compiled.py checks) */

typedef struct {
    int32_t n, sets;                /* steps of a round, alive sets */
    alive_set *alive;               /* sets */
    int32_t *draw;                  /* sets x n: the step that fires next from each step (-1: none fires) */
    shot *shots;                    /* sets x n: each firing step's shot */
    slot *slot;                     /* the states counted: open addressing, a power of two, at most half full */
    int64_t slots, count;
    double *solved;                 /* sets x n: the value at a fresh refill, from a step (where has_solved) */
    int8_t *has_solved;
} engine;

static uint64_t pack(const int32_t *r, const alive_set *set) {
    uint64_t word = 0;
    for (int32_t k = 0; k < set->kinds; k++)
        if (k != set->most) word = word << KIND_BITS | (uint64_t)r[k];
    return word << KIND_BITS | (uint64_t)r[set->most];
}

static uint64_t key_hash(uint64_t cards, int32_t set, int32_t step) {   /* MurmurHash3's finaliser */
    uint64_t h = cards ^ ((uint64_t)(uint32_t)set << 32 | (uint32_t)step) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 33; h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33; h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

static int grow_to(engine *e, int64_t slots) {
    slot *table = calloc((size_t)slots, sizeof(slot));
    if (!table) return 0;
    for (int64_t h = 0; h < e->slots; h++) {
        if (!e->slot[h].taken) continue;
        uint64_t cards = e->slot[h].cards;
        uint64_t at = (key_hash(cards >> KIND_BITS, e->slot[h].set, e->slot[h].step) + (cards & ((1u << KIND_BITS) - 1)))
                      & (slots - 1);
        while (table[at].taken) at = (at + 1) & (slots - 1);
        table[at] = e->slot[h];
    }
    free(e->slot);
    e->slot = table;
    e->slots = slots;
    return 1;
}

static int grow(engine *e) {
    return grow_to(e, e->slots * 2);
}

/* The state's slot, or an empty one. States that differ only in their cards of the kind with the most cards
   (packed lowest) lie side by side: a card of that kind turned (most often a miss) finds the next state in the
   cache line just read, not one anywhere in the table. */
static uint64_t place(const engine *e, uint64_t cards, int32_t set, int32_t step) {
    return (key_hash(cards >> KIND_BITS, set, step) + (cards & ((1u << KIND_BITS) - 1))) & (e->slots - 1);
}

static slot *find(engine *e, uint64_t cards, int32_t set, int32_t step) {
    uint64_t h = place(e, cards, set, step);
    while (e->slot[h].taken && !(e->slot[h].cards == cards && e->slot[h].set == set && e->slot[h].step == step))
        h = (h + 1) & (e->slots - 1);
    return &e->slot[h];
}

static int value(engine *e, int32_t set, int32_t s, const int32_t *r, double *out);

/* Exact._count: from a state, (a, b, g). 0 when memory ran out. */
static int lin(engine *e, int32_t set, int32_t s, const int32_t *r, double *a, double *b, int32_t *g);

static int count(engine *e, int32_t set, int32_t s, const int32_t *r, double *a_out, double *b_out, int32_t *g_out) {
    const alive_set *here = &e->alive[set];
    *a_out = 0.0; *b_out = 0.0; *g_out = -1;
    if (here->outcome != GOES_ON) { *a_out = here->outcome; return 1; }
    int32_t t = e->draw[(int64_t)set * e->n + s];
    if (t < 0) return 1;
    int32_t kinds = here->kinds, total = 0;
    for (int32_t k = 0; k < kinds; k++) total += r[k];
    if (!total) { *b_out = 1.0; *g_out = t; return 1; }
    const shot *x = &e->shots[(int64_t)set * e->n + t];
    int32_t after = (t + 1) % e->n, missed = e->draw[(int64_t)set * e->n + after];
    if (missed < 0) missed = after;
    double a = 0.0, b = 0.0;
    int32_t g = -1, rest[MOST_KINDS];
    memcpy(rest, r, sizeof(int32_t) * kinds);
    for (int32_t k = 0; k < kinds; k++) {
        int32_t left = r[k];
        if (!left) continue;
        double p = (double)left / (double)total;
        rest[k] = left - 1;
        if (x->hits >> k & 1) {
            if (x->done != GOES_ON) {
                a += p * (double)x->done;
            } else {
                int32_t there[MOST_KINDS] = {0};
                for (int32_t j = 0; j < kinds; j++) there[x->proj[j]] += rest[j];
                double v;
                if (!value(e, x->after, after, there, &v)) return 0;
                a += p * v;
            }
        } else {
            double a2, b2;
            int32_t g2;
            if (!lin(e, set, missed, rest, &a2, &b2, &g2)) return 0;
            a += p * a2;
            b += p * b2;
            if (b2 != 0.0) g = g2;
        }
        rest[k] = left;
    }
    *a_out = a; *b_out = b; *g_out = g;
    return 1;
}

static int lin(engine *e, int32_t set, int32_t s, const int32_t *r, double *a, double *b, int32_t *g) {
    uint64_t cards = pack(r, &e->alive[set]);
    slot *found = find(e, cards, set, s);
    if (found->taken) { *a = found->a; *b = found->b; *g = found->g; return 1; }
    if (!count(e, set, s, r, a, b, g)) return 0;
    if (2 * (e->count + 1) > e->slots && !grow(e)) return 0;
    found = find(e, cards, set, s);      /* (the count may have grown the table) */
    *found = (slot){cards, *a, *b, 1, (uint8_t)set, (uint8_t)s, (int8_t)*g};
    e->count++;
    return 1;
}

static int solve(engine *e, int32_t set, int32_t g);

static int at_refill(engine *e, int32_t set, int32_t g, double *out) {
    int64_t at = (int64_t)set * e->n + g;
    if (!e->has_solved[at] && !solve(e, set, g)) return 0;
    *out = e->solved[at];
    return 1;
}

/* Exact.value: counted from the step that fires next (s = n, the round over, is the next round's first). */
static int value(engine *e, int32_t set, int32_t s, const int32_t *r, double *out) {
    s %= e->n;
    if (e->alive[set].outcome == GOES_ON) {
        int32_t fires = e->draw[(int64_t)set * e->n + s];
        if (fires >= 0) s = fires;
    }
    double a, b, x;
    int32_t g;
    if (!lin(e, set, s, r, &a, &b, &g)) return 0;
    if (b == 0.0) { *out = a; return 1; }
    if (!at_refill(e, set, g, &x)) return 0;
    *out = a + b * x;
    return 1;
}

/* Exact._solve: the values at a fresh refill along the path of refills from step g, a cycle solved from its
   lowest step. */
static int solve(engine *e, int32_t set, int32_t g) {
    int32_t n = e->n, len = 0, *steps = malloc(sizeof(int32_t) * (n + 1)), *next = malloc(sizeof(int32_t) * (n + 1));
    int32_t *seen = malloc(sizeof(int32_t) * n);
    double *as = malloc(sizeof(double) * (n + 1)), *bs = malloc(sizeof(double) * (n + 1));
    int ok = steps && next && seen && as && bs;
    double *solved = e->solved + (int64_t)set * n;
    int8_t *has = e->has_solved + (int64_t)set * n;
    int32_t step = g;
    if (ok) for (int32_t i = 0; i < n; i++) seen[i] = -1;
    while (ok && step >= 0 && seen[step] < 0 && !has[step]) {
        double a, b;
        int32_t nxt;
        seen[step] = len;
        if (!lin(e, set, step, e->alive[set].refill, &a, &b, &nxt)) { ok = 0; break; }
        steps[len] = step; as[len] = a; bs[len] = b; next[len] = b != 0.0 ? nxt : -1;
        len++;
        step = b != 0.0 ? nxt : -1;
    }
    if (ok) {
        int32_t path = len;
        if (step >= 0 && seen[step] >= 0) {     /* a cycle of refills: path[seen[step]:] */
            int32_t from = seen[step], size = len - from, low = from;
            for (int32_t i = from; i < len; i++) if (steps[i] < steps[low]) low = i;
            double gain = 0.0, carry = 1.0;
            for (int32_t j = 0; j < size; j++) {
                int32_t i = from + (low - from + j) % size;
                gain = gain + carry * as[i];
                carry = carry * bs[i];
            }
            /* No card of any deck to come can hit: the battle never ends, and the defender holds it. */
            solved[steps[low]] = carry < 1.0 - 1e-12 ? gain / (1.0 - carry) : 0.0;
            has[steps[low]] = 1;
            for (int32_t j = size - 1; j >= 1; j--) {
                int32_t i = from + (low - from + j) % size;
                solved[steps[i]] = as[i] + bs[i] * solved[next[i]];
                has[steps[i]] = 1;
            }
            path = from;
        }
        for (int32_t i = path - 1; i >= 0; i--) {
            solved[steps[i]] = bs[i] != 0.0 ? as[i] + bs[i] * solved[next[i]] : as[i] + 0.0;
            has[steps[i]] = 1;
        }
    }
    free(steps); free(next); free(seen); free(as); free(bs);
    return ok;
}

/* -- the interface (compiled.py) ------------------------------------------------------------------ */
void exact_free(void *handle);

/* The blob: n, sets; then each set's outcome, kinds, refill (MOST_KINDS) and draw (n); then each set's shots
   (n of them: hits, after, done, proj (MOST_KINDS)). ``expected``: the states the count may need (the
   estimate), so that the table is made once, not grown and copied a dozen times. */
void *exact_new(const int32_t *blob, int64_t len, int64_t expected) {
    if (len < 2) return NULL;
    int32_t n = blob[0], sets = blob[1];
    if (n <= 0 || n > 127 || sets <= 0 || sets > 255
        || len != 2 + (int64_t)sets * (2 + MOST_KINDS + n) + (int64_t)sets * n * (3 + MOST_KINDS))
        return NULL;
    int64_t slots = 4096;
    while (slots < expected && slots < ((int64_t)1 << 24)) slots *= 2;   /* (most counts meet a quarter of it) */
    engine *e = calloc(1, sizeof(engine));
    if (!e) return NULL;
    e->n = n; e->sets = sets;
    e->alive = malloc(sizeof(alive_set) * sets);
    e->draw = malloc(sizeof(int32_t) * sets * n);
    e->shots = malloc(sizeof(shot) * sets * n);
    e->solved = malloc(sizeof(double) * sets * n);
    e->has_solved = calloc((size_t)sets * n, 1);
    if (!e->alive || !e->draw || !e->shots || !e->solved || !e->has_solved || !grow_to(e, slots)) {
        exact_free(e);
        return NULL;
    }
    const int32_t *c = blob + 2;
    for (int32_t i = 0; i < sets; i++) {
        e->alive[i].outcome = *c++;
        e->alive[i].kinds = *c++;
        memcpy(e->alive[i].refill, c, sizeof(int32_t) * MOST_KINDS); c += MOST_KINDS;
        e->alive[i].most = 0;
        for (int32_t k = 1; k < e->alive[i].kinds; k++)
            if (e->alive[i].refill[k] > e->alive[i].refill[e->alive[i].most]) e->alive[i].most = k;
        memcpy(e->draw + (int64_t)i * n, c, sizeof(int32_t) * n); c += n;
    }
    for (int64_t i = 0; i < (int64_t)sets * n; i++) {
        shot *x = &e->shots[i];
        x->hits = *c++; x->after = *c++; x->done = *c++;
        memcpy(x->proj, c, sizeof(int32_t) * MOST_KINDS); c += MOST_KINDS;
    }
    return e;
}

void exact_free(void *handle) {
    engine *e = handle;
    if (!e) return;
    free(e->alive); free(e->draw); free(e->shots); free(e->slot); free(e->solved); free(e->has_solved);
    free(e);
}

/* The aggressor's chance from an alive set (its number), a step and the cards left by its kinds; 0 when
   memory ran out (then *chance is not set). */
int32_t exact_value(void *handle, int32_t set, int32_t step, const int32_t *cards, double *chance) {
    return value(handle, set, step, cards, chance);
}
