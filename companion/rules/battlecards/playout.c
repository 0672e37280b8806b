/* The play-outs of a simulated battle, compiled (simulate.py's second implementation of the same model).

   Why it exists: the simulation's cost is working out the policy in each state a play-out meets for the first
   time (which unit fires, at which target, with which support), about 18,000 states in the first 2,000
   play-outs of an 18-unit battle: 180-330 ms in Python, well over the 5 ms a query the odds are allowed (issue
   30). Here each state costs a fraction of a microsecond (and a battle that large is played out 600 times:
   simulate.LARGE_RUNS).

   What it must do: exactly what simulate.py's Moves and _play_out do with the same shuffled cards, so the
   figures do not depend on which implementation ran (tests/test_battlecards_playout.py compares the two on
   random battles). The policy is count.PlayedBattle's: the names below are its names. The shuffles are
   drawn by numpy in Python and handed over, one deck's shuffled positions at a time.

   A state is (alive set, step of the round, whether the round's Kept Cards still count), numbered as met,
   with the state a card turned sends a play-out to on a hit and on a miss (the states of one alive set in
   one block). Built by companion/rules/battlecards/compiled.py with the system's C compiler (no Python
   headers: it is loaded with ctypes). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One battle as the odds play it: a PlayedBattle flattened (compiled.py's blob(), every field an int32). */
typedef struct {
    int32_t n, steps, must_destroy, reach_len, numbers_len;
    const int32_t *side;            /* 0 the aggressor's, 1 the defender's */
    const int32_t *fires;           /* the unit has a phase to fire in */
    const int32_t *must;            /* its type is one the aggressor must destroy */
    const int32_t *support_attack, *support_defense;
    const int32_t *shooter, *volley;    /* of each step: its shooter, the first step of its volley */
    const int32_t *relevant_lo, *relevant_hi;   /* of each step: the units its decision depends on (two halves) */
    const int32_t *att_off, *att;       /* each unit's attack supporters, best first */
    const int32_t *def_off, *def;       /* each unit's guards (defense supporters), best first */
    const int32_t *enemy_off, *enemy;   /* each unit's enemies, in the order it considers them */
    const int32_t *base_ok, *base_a, *base_d;   /* n x n: the shooter's Attack, the target's Defense */
    const int32_t *prefix;          /* prefix[k]: the reference's cards with an Action Number under k */
    const int32_t *numbers;         /* the Action Numbers the deck holds (a stalemate: none can hit) */
} battle;

static const int32_t *take(const int32_t **cursor, int64_t count) {
    const int32_t *here = *cursor;
    *cursor += count;
    return here;
}

static void unpack(battle *b, const int32_t *blob) {
    const int32_t *c = blob + 5;
    b->n = blob[0]; b->steps = blob[1]; b->must_destroy = blob[2]; b->reach_len = blob[3]; b->numbers_len = blob[4];
    int32_t n = b->n;
    b->side = take(&c, n); b->fires = take(&c, n); b->must = take(&c, n);
    b->support_attack = take(&c, n); b->support_defense = take(&c, n);
    b->shooter = take(&c, b->steps); b->volley = take(&c, b->steps);
    b->relevant_lo = take(&c, b->steps); b->relevant_hi = take(&c, b->steps);
    b->att_off = take(&c, n + 1); b->att = take(&c, b->att_off[n]);
    b->def_off = take(&c, n + 1); b->def = take(&c, b->def_off[n]);
    b->enemy_off = take(&c, n + 1); b->enemy = take(&c, b->enemy_off[n]);
    b->base_ok = take(&c, (int64_t)n * n); b->base_a = take(&c, (int64_t)n * n); b->base_d = take(&c, (int64_t)n * n);
    b->prefix = take(&c, b->reach_len + 1);
    b->numbers = take(&c, b->numbers_len);
}

#define ALIVE(mask, i) (((mask) >> (i)) & 1u)

static int best_supporter(const battle *b, uint64_t mask, int shooter, uint64_t used) {
    for (int k = b->att_off[shooter]; k < b->att_off[shooter + 1]; k++) {
        int j = b->att[k];
        if (ALIVE(mask, j) && !ALIVE(used, j)) return j;
    }
    return -1;
}

/* The Attack and Defense of a shot, or 0 when it is not legal (no values, or an Attack under the Defense). */
static int values(const battle *b, uint64_t mask, int shooter, int target, int support, int32_t *a, int32_t *d) {
    int64_t at = (int64_t)shooter * b->n + target;
    if (!b->base_ok[at]) return 0;
    *a = b->base_a[at] + (support >= 0 ? b->support_attack[support] : 0);
    *d = b->base_d[at];
    for (int k = b->def_off[target]; k < b->def_off[target + 1]; k++) {
        int g = b->def[k];
        if (ALIVE(mask, g)) { *d += b->support_defense[g]; break; }
    }
    return *a >= *d;
}

static int32_t reach(const battle *b, int32_t a, int32_t d) {   /* the reference's cards in (d, a] */
    int32_t hi = a + 1, lo = d + 1;
    hi = hi < 0 ? 0 : (hi > b->reach_len ? b->reach_len : hi);
    lo = lo < 0 ? 0 : (lo > b->reach_len ? b->reach_len : lo);
    return hi > lo ? b->prefix[hi] - b->prefix[lo] : 0;
}

/* The likeliest hit: its target (or -1 when there is no legal target), its Attack and Defense. */
static int best_shot(const battle *b, uint64_t mask, int shooter, uint64_t used, int32_t *attack, int32_t *defense) {
    int support = best_supporter(b, mask, shooter, used), best = -1;
    int32_t best_reach = -1, a, d;
    for (int k = b->enemy_off[shooter]; k < b->enemy_off[shooter + 1]; k++) {
        int target = b->enemy[k];
        if (!ALIVE(mask, target) || !values(b, mask, shooter, target, support, &a, &d)) continue;
        int32_t r = reach(b, a, d);
        if (r > best_reach) { best = target; best_reach = r; *attack = a; *defense = d; }
    }
    return best;
}

/* The supporters the shooters before this step in its volley used (the policy: each its best first). */
static uint64_t used_support(const battle *b, uint64_t mask, int step) {
    uint64_t used = 0;
    int32_t a, d;
    for (int k = b->volley[step]; k < step; k++) {
        int s = b->shooter[k];
        if (b->att_off[s] == b->att_off[s + 1]) continue;    /* no supporter to use: its shot does not matter here */
        if (ALIVE(mask, s) && best_shot(b, mask, s, used, &a, &d) >= 0) {
            int support = best_supporter(b, mask, s, used);
            if (support >= 0) used |= (uint64_t)1 << support;
        }
    }
    return used;
}

static int decision(const battle *b, uint64_t mask, int step, int32_t *attack, int32_t *defense) {
    int s = b->shooter[step];
    if (!ALIVE(mask, s)) return -1;
    return best_shot(b, mask, s, used_support(b, mask, step), attack, defense);
}

static int stalemate(const battle *b, uint64_t mask) {
    int32_t a, d;
    for (int i = 0; i < b->n; i++) {
        if (!ALIVE(mask, i) || !b->fires[i]) continue;
        int support = best_supporter(b, mask, i, 0);
        for (int k = b->enemy_off[i]; k < b->enemy_off[i + 1]; k++) {
            int t = b->enemy[k];
            if (!ALIVE(mask, t) || !values(b, mask, i, t, support, &a, &d)) continue;
            for (int m = 0; m < b->numbers_len; m++)
                if (d < b->numbers[m] && b->numbers[m] <= a) return 0;
        }
    }
    return 1;
}

enum { GOES_ON = -1, DEFENDER_WON = 0, AGGRESSOR_WON = 1 };

static int outcome(const battle *b, uint64_t mask) {
    int defenders = 0, aggressors = 0, targets = 0;
    for (int i = 0; i < b->n; i++) {
        if (!ALIVE(mask, i)) continue;
        if (b->side[i]) { defenders++; targets += b->must[i]; } else aggressors++;
    }
    if (!defenders) return AGGRESSOR_WON;
    if (!aggressors) return DEFENDER_WON;
    if (b->must_destroy && !targets) return AGGRESSOR_WON;
    if (stalemate(b, mask)) return DEFENDER_WON;   /* "the aggressor MUST withdraw his forces" */
    return GOES_ON;
}

/* -- the states and where each card sends a play-out ------------------------------------------------- */
enum { UNKNOWN = 0, FIGHTING = 1, WON = 2, LOST = 3 };
enum { NOT_ASKED = 2 };     /* a block's outcome not worked out yet (else GOES_ON, DEFENDER_WON, AGGRESSOR_WON) */

/* Where a card sends a play-out from a state, once worked out: to ``hit`` on an Action Number in
   (defense, attack], else to ``miss``; a state where the battle is over sends it nowhere. Twelve bytes, so a
   card turned reads one record, and the records of one alive set lie together. The hit's state is looked up
   when a play-out first hits there (most states are met by one play-out, which misses about half the time):
   until then ``hit`` is UNRESOLVED(after, first), the step and round it leads to, and ``target`` the unit. */
typedef struct {
    int32_t hit, miss;
    int8_t attack, defense, status, target;
} state;

#define UNRESOLVED(after, first) (-1 - 2 * (after) - (first))

/* An alive set met, with or without the round's Kept Cards: its *block* of states, one a step of the round
   (``width`` of them), numbered together: state = block x width + step. A miss (the same units, the next
   step) is the next record, with no look-up; only a hit (a unit fewer) looks its block up. */
typedef struct {
    uint64_t mask;
    int32_t block;                  /* -1: an empty slot */
    int32_t first;
} block_slot;

/* A decision memoised (count.PlayedBattle.decision's memo): its key is the alive set of the units the step's
   decision depends on, so alive sets that differ elsewhere share it (4 calls in 5 in an 18-unit battle). */
typedef struct {
    uint64_t key;
    int32_t step, target, attack, defense;     /* target -2: an empty slot; -1: no shot */
} shot_slot;

typedef struct {
    shot_slot *slot;
    int64_t count, slots;
} shot_memo;

typedef struct {
    battle now, later;
    int32_t *blobs;                 /* the two battles' fields, owned */
    int32_t width;                  /* states a block: the steps of a round and one more (the round just over) */
    int64_t blocks, cap;            /* blocks numbered, room for */
    uint64_t *mask;                 /* of each block: its alive set, */
    int8_t *first, *outcome;        /* whether the Kept Cards count, the battle's outcome there (or NOT_ASKED) */
    state *states;                  /* cap x width */
    int64_t slots;                  /* the hash table of blocks: a power of two, at most half full */
    block_slot *slot;
    shot_memo shots[2];             /* the decisions of the rounds after the first ([0]) and of the first ([1]) */
} engine;

static uint64_t key_hash(uint64_t mask, int32_t salt) {   /* MurmurHash3's finaliser: every bit mixed */
    uint64_t h = mask ^ (uint64_t)salt * 0x9E3779B97F4A7C15ull;
    h ^= h >> 33; h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33; h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

static int grow_slots(engine *e) {
    int64_t slots = e->slots ? e->slots * 2 : 1024;
    block_slot *table = malloc(sizeof(block_slot) * slots);
    if (!table) return 0;
    for (int64_t h = 0; h < slots; h++) table[h].block = -1;
    for (int64_t h = 0; h < e->slots; h++) {
        if (e->slot[h].block < 0) continue;
        uint64_t at = key_hash(e->slot[h].mask, e->slot[h].first) & (slots - 1);
        while (table[at].block >= 0) at = (at + 1) & (slots - 1);
        table[at] = e->slot[h];
    }
    free(e->slot);
    e->slot = table;
    e->slots = slots;
    return 1;
}

static int grow_blocks(engine *e) {
    int64_t cap = e->cap ? e->cap * 2 : 512;
    uint64_t *mask = realloc(e->mask, sizeof(uint64_t) * cap);
    if (mask) e->mask = mask;
    int8_t *first = realloc(e->first, cap);
    if (first) e->first = first;
    int8_t *outcome = realloc(e->outcome, cap);
    if (outcome) e->outcome = outcome;
    state *states = realloc(e->states, sizeof(state) * cap * e->width);
    if (states) e->states = states;
    if (!mask || !first || !outcome || !states) return 0;
    e->cap = cap;
    return 1;
}

/* The block of an alive set, numbering it if it is new (its states not worked out); -1 when memory runs out. */
static int32_t block(engine *e, uint64_t mask, int8_t first) {
    if (2 * (e->blocks + 1) > e->slots && !grow_slots(e)) return -1;
    uint64_t h = key_hash(mask, first) & (e->slots - 1);
    for (; e->slot[h].block >= 0; h = (h + 1) & (e->slots - 1))
        if (e->slot[h].mask == mask && e->slot[h].first == first) return e->slot[h].block;
    if (e->blocks == e->cap && !grow_blocks(e)) return -1;
    int32_t b = (int32_t)e->blocks++;
    e->mask[b] = mask; e->first[b] = first; e->outcome[b] = NOT_ASKED;
    memset(e->states + (int64_t)b * e->width, 0, sizeof(state) * e->width);    /* every state UNKNOWN */
    e->slot[h] = (block_slot){mask, b, first};
    return b;
}

/* A state's number; -1 when memory runs out. */
static int32_t place(engine *e, uint64_t mask, int32_t step, int8_t first) {
    int32_t b = block(e, mask, first);
    return b < 0 ? -1 : b * e->width + step;
}

static int over(engine *e, int32_t s, int won) {
    e->states[s].status = won ? WON : LOST;
    return 1;
}

static int8_t clamp(int32_t value) {    /* an Attack or Defense against Action Numbers 0..127 (int8 decks) */
    return (int8_t)(value < -1 ? -1 : value > 127 ? 127 : value);
}

static int fire(engine *e, int32_t b, int32_t s, uint64_t mask, int target, int32_t attack, int32_t defense,
                int32_t after, int8_t first) {
    int32_t miss = e->first[b] == first ? b * e->width + after : place(e, mask, after, first);
    if (miss < 0) return 0;
    state *x = &e->states[s];      /* (after place(), which may have moved the states) */
    x->hit = UNRESOLVED(after, first); x->miss = miss;
    x->attack = clamp(attack); x->defense = clamp(defense);
    x->status = FIGHTING; x->target = (int8_t)target;
    return 1;
}

/* The state a hit at ``s`` leads to, looked up (numbered if new) the first time a play-out hits there; -1 when
   memory runs out. */
static int32_t hit_state(engine *e, int32_t s) {
    int32_t code = -1 - e->states[s].hit, b = s / e->width;
    int32_t hit = place(e, e->mask[b] & ~((uint64_t)1 << e->states[s].target), code / 2, (int8_t)(code % 2));
    if (hit >= 0) e->states[s].hit = hit;
    return hit;
}

/* A block's outcome in its own battle (with or without the Kept Cards), memoised on the block. */
static int block_outcome(engine *e, int32_t b) {
    if (e->outcome[b] == NOT_ASKED) e->outcome[b] = (int8_t)outcome(e->first[b] ? &e->now : &e->later, e->mask[b]);
    return e->outcome[b];
}

static int grow_shots(shot_memo *m) {
    int64_t slots = m->slots ? m->slots * 2 : 1024;
    shot_slot *table = malloc(sizeof(shot_slot) * slots);
    if (!table) return 0;
    for (int64_t h = 0; h < slots; h++) table[h].target = -2;
    for (int64_t h = 0; h < m->slots; h++) {
        if (m->slot[h].target == -2) continue;
        uint64_t at = key_hash(m->slot[h].key, m->slot[h].step) & (slots - 1);
        while (table[at].target != -2) at = (at + 1) & (slots - 1);
        table[at] = m->slot[h];
    }
    free(m->slot);
    m->slot = table;
    m->slots = slots;
    return 1;
}

/* decision(), memoised; -2 when memory ran out. */
static int decided(engine *e, int first, uint64_t mask, int step, int32_t *attack, int32_t *defense) {
    const battle *b = first ? &e->now : &e->later;
    shot_memo *m = &e->shots[first != 0];
    if (2 * (m->count + 1) > m->slots && !grow_shots(m)) return -2;
    uint64_t key = mask & ((uint64_t)(uint32_t)b->relevant_hi[step] << 32 | (uint32_t)b->relevant_lo[step]);
    uint64_t h = key_hash(key, step) & (m->slots - 1);
    for (; m->slot[h].target != -2; h = (h + 1) & (m->slots - 1)) {
        if (m->slot[h].key == key && m->slot[h].step == step) {
            *attack = m->slot[h].attack; *defense = m->slot[h].defense;
            return m->slot[h].target;
        }
    }
    int32_t a = 0, d = 0;
    int target = decision(b, mask, step, &a, &d);
    m->slot[h] = (shot_slot){key, step, target, a, d};
    m->count++;
    *attack = a; *defense = d;
    return target;
}

/* simulate.Moves._work_out: the round with the Kept Cards played first, then the rounds without them. */
static int work_out(engine *e, int32_t s) {
    int32_t b = s / e->width, step = s % e->width, a, d;
    uint64_t mask = e->mask[b];
    if (e->first[b]) {
        int now = block_outcome(e, b);
        if (now != GOES_ON) return over(e, s, now);
        for (int t = step; t < e->now.steps; t++) {
            if (!ALIVE(mask, e->now.shooter[t])) continue;    /* (decision() says so, without the memo's look-up) */
            int target = decided(e, 1, mask, t, &a, &d);
            if (target == -2) return 0;
            if (target >= 0) return fire(e, b, s, mask, target, a, d, t + 1, 1);
        }
        step = 0;
    }
    int done = e->first[b] ? outcome(&e->later, mask) : block_outcome(e, b);
    if (done != GOES_ON) return over(e, s, done);
    int n = e->later.steps;
    for (int j = 0; j < n; j++) {
        int t = step + j < n ? step + j : step + j - n;     /* (step <= n) */
        if (!ALIVE(mask, e->later.shooter[t])) continue;
        int target = decided(e, 0, mask, t, &a, &d);
        if (target == -2) return 0;
        if (target >= 0) return fire(e, b, s, mask, target, a, d, t + 1 < n ? t + 1 : 0, 0);
    }
    return over(e, s, 0);    /* nobody can fire: the defender holds the field */
}

/* -- the interface (compiled.py) ------------------------------------------------------------------ */
void *playout_new(const int32_t *now, int64_t now_len, const int32_t *later, int64_t later_len) {
    engine *e = calloc(1, sizeof(engine));
    if (!e) return NULL;
    e->blobs = malloc(sizeof(int32_t) * (now_len + later_len));
    if (!e->blobs) { free(e); return NULL; }
    memcpy(e->blobs, now, sizeof(int32_t) * now_len);
    memcpy(e->blobs + now_len, later, sizeof(int32_t) * later_len);
    unpack(&e->now, e->blobs);
    unpack(&e->later, e->blobs + now_len);
    e->width = (e->now.steps > e->later.steps ? e->now.steps : e->later.steps) + 1;
    return e;
}

void playout_free(void *handle) {
    engine *e = handle;
    if (!e) return;
    free(e->blobs); free(e->mask); free(e->first); free(e->outcome); free(e->states); free(e->slot);
    free(e->shots[0].slot); free(e->shots[1].slot);
    free(e);
}

int32_t playout_place(void *handle, uint64_t mask, int32_t step, int32_t first) {
    return place(handle, mask, step, (int8_t)(first != 0));
}

/* How many play-outs are still fighting, every state they are in worked out; -1 when memory ran out. */
static int64_t fighting(engine *e, const int32_t *at, int64_t runs) {
    int64_t count = 0;
    for (int64_t r = 0; r < runs; r++) {
        if (e->states[at[r]].status == UNKNOWN && !work_out(e, at[r])) return -1;
        count += e->states[at[r]].status == FIGHTING;
    }
    return count;
}

/* A play-out still fighting, as the loop over the cards holds it: where it is, the next of its shuffled
   positions, its deck. Kept together, so a card turned reads one record and no array by run number. */
typedef struct {
    int32_t run, at;
    const int16_t *next;
    const int8_t *deck;
} runner;

/* The play-outs of ``live`` still fighting, kept in order (their states worked out); those over leave their
   place in ``at``. Their number; -1 when memory ran out. */
static int64_t still_fighting(engine *e, runner *live, int64_t left, int32_t *at) {
    int64_t kept = 0;
    for (int64_t k = 0; k < left; k++) {
        runner u = live[k];
        if (e->states[u.at].status == UNKNOWN && !work_out(e, u.at)) return -1;
        if (e->states[u.at].status == FIGHTING) live[kept++] = u;
        else at[u.run] = u.at;
    }
    return kept;
}

/* simulate._play_out's loop over one deck's cards, from card turn ``t0``: every fourth turn the play-outs still
   fighting are counted, and the loop stops when no more than ``tail`` are; it stops at turn ``most``. A
   play-out's deck is row ``group[r]`` of ``decks`` (``size`` Action Numbers each), turned in the order of the
   positions under ``size`` in its row of ``shuffled`` (``runs`` rows of ``width`` positions: simulate._order's
   rule, followed here). Returns the cards turned (``size`` unless it stopped early, ``*stopped`` 1); -1 when
   memory ran out. Only the play-outs still fighting are moved (``live``): one that is over stays where it is,
   in Python as here, so skipping it changes nothing but the time. */
int64_t playout_run(void *handle, int32_t *at, int64_t runs, const int8_t *decks, int64_t size,
                    const int32_t *group, const int16_t *shuffled, int64_t width, int64_t t0, int64_t most,
                    int64_t tail, int32_t *stopped) {
    engine *e = handle;
    runner *live = malloc(sizeof(runner) * (runs ? runs : 1));
    if (!live) return -1;
    int64_t left = 0, turned = size;
    *stopped = 0;
    for (int64_t r = 0; r < runs; r++) {
        if (e->states[at[r]].status == UNKNOWN && !work_out(e, at[r])) { free(live); return -1; }
        if (e->states[at[r]].status == FIGHTING)
            live[left++] = (runner){(int32_t)r, at[r], shuffled + r * width, decks + group[r] * size};
    }
    for (int64_t i = 0; i < size; i++) {
        int64_t t = t0 + i;
        if (t >= most) { *stopped = 1; turned = i; break; }
        if (t % 4 == 0) {      /* every fourth turn: the play-outs still fighting counted */
            if ((left = still_fighting(e, live, left, at)) < 0) { free(live); return -1; }
            if (left <= tail) { *stopped = 1; turned = i; break; }
        }
        int64_t kept = 0;
        for (int64_t k = 0; k < left; k++) {     /* every play-out still fighting turns its card */
            runner u = live[k];
            const state *x = &e->states[u.at];   /* (prefetched when the play-out moved there) */
            if (x->status == UNKNOWN) {
                if (!work_out(e, u.at)) { free(live); return -1; }
                x = &e->states[u.at];            /* (work_out may have moved the states) */
            }
            if (x->status != FIGHTING) { at[u.run] = u.at; continue; }
            int32_t position;
            do position = *u.next++; while (position >= size);
            int card = u.deck[position];
            /* a hit on (defense, attack] as one unsigned comparison and a select, no branch: half the cards
               hit, so a branch on it is mispredicted about half the time */
            int hits = (uint32_t)(card - x->defense - 1) < (uint32_t)(x->attack - x->defense);
            int32_t next = hits ? x->hit : x->miss;
            if (next < 0 && (next = hit_state(e, u.at)) < 0) { free(live); return -1; }
            u.at = next;
            __builtin_prefetch(&e->states[next]);     /* (read on the next turn: the reads of many play-outs overlap) */
            live[kept++] = u;
        }
        left = kept;
    }
    for (int64_t k = 0; k < left; k++) at[live[k].run] = live[k].at;
    free(live);
    return turned;
}

/* The aggressor's wins and the play-outs still fighting; -1 when memory ran out. */
int64_t playout_tally(void *handle, const int32_t *at, int64_t runs, int64_t *wins) {
    engine *e = handle;
    int64_t left = fighting(e, at, runs);
    *wins = 0;
    for (int64_t r = 0; r < runs; r++) *wins += e->states[at[r]].status == WON;
    return left;
}
