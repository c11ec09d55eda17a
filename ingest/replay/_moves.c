/* The moves of a deal in C, for the fast check: the plan of ingest/replay/fast_plan.py.
 *
 * replay_moves() plays a fast-read deal's records (play codes and decoded records) on C
 * arrays, exactly as ingest/replay/fast_check.py plays them (same checks, same order), and
 * returns the deal's *plan*: the kongs and wins in the order they are priced, each with
 * what pricing needs (the seat's tiles and melds, the win's context), and the hands at
 * the end. It prices nothing: fans, payments and 查叫 stay in Python (engine.fan,
 * engine.settle), priced by ingest/replay/fast_plan.py from the plan.
 *
 * It plays any table of engine/table.py without 红中: the seats that play (4, 3 or 2, turn
 * order 0, 1, ...), the kinds in the set (a tile of another kind gives up), the tiles dealt
 * and the wall's size, all given by the caller.
 *
 * It returns None (and the caller goes on to ingest/replay/fast_check.py) at anything it does
 * not take: an illegal move, 换三张, a record it does not know, every case where a win
 * might be missed or passed (the pass rule, 最后四张 forced wins): those need a fan,
 * which only Python scores; and under 血流成河 any kong or pong of a fixed hand (a kong
 * must keep the waits, which the Python moves work out). So None never says "not clean";
 * it says "not here".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "move_codes.h" /* the table, phases, pass rules, ends, steps, context and rule bits */

#define MAX_OPEN 256
#define NO_TILE (-1)
#define KEY_LIMIT 1953125 /* 5 ** 9 */

static unsigned char *shape_table; /* key -> 1: sets and a pair; 2: all pairs */
static const long POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
static PyObject *types[6]; /* DrawRec, DiscardRec, PongRec, KongRec, HuRec, VoidRec */
static PyObject *s_seat, *s_tile, *s_kind, *s_from, *s_suit;

typedef struct {
    int seat, tile, line, after_kong, last_tile, last_four, rob, winners;
} Open;

typedef struct {
    int flags, pass_rule, dealer;
    int players, hand_size, wall_size; /* the table: seats 0 .. players - 1 play */
    int in_set[KINDS];                 /* each kind: in the table's set */
    int hands[4][KINDS];
    long keys[4][3];
    int sizes[4];
    int pongs[4][4], npongs[4], kongs[4][4], nkongs[4];
    int voids[4], draws[4], won[4], nwon;
    int wall[KINDS * COPIES], has_wall, out_of_wall[KINDS];
    int wall_left, front, back, current, phase;
    Open opened[MAX_OPEN];
    int nopened, open, pass_from[4];
    int last_draw, after_kong, any_claim, any_discard;
    int pending_seat, pending_tile, pending_line, pending_drawn;
    PyObject *pending_rec; /* borrowed: the records list holds it */
    int end_reason;
    PyObject *plan;
} Deal;

/* A move this path does not take: give the deal up (not an error). */
#define GIVE_UP 1
#define FAILED (-1)
#define TRY(call) do { int _r = (call); if (_r) return _r; } while (0)

static void move(Deal *d, int seat, int tile, int count)
{
    d->hands[seat][tile] += count;
    d->sizes[seat] += count;
    d->keys[seat][tile / 9] += count * POW5[tile % 9];
}

static int in_table(long key, int bit)
{
    return key >= 0 && key < KEY_LIMIT && (shape_table[key] & bit);
}

/* fast_state.FastState.shape_with */
static int shape_with(Deal *d, int seat, int tile)
{
    long k[3] = {d->keys[seat][0], d->keys[seat][1], d->keys[seat][2]};
    int total = d->sizes[seat];
    if (tile != NO_TILE) {
        total += 1;
        k[tile / 9] += POW5[tile % 9];
    }
    if (total % 3 == 2 && in_table(k[0], 1) && in_table(k[1], 1) && in_table(k[2], 1))
        return 1;
    int concealed = d->npongs[seat] == 0 && d->nkongs[seat] == 0;
    return concealed && total == 14 && in_table(k[0], 2) && in_table(k[1], 2) && in_table(k[2], 2);
}

static PyObject *int_list(const int *values, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int emit(Deal *d, PyObject *step)
{
    if (step == NULL)
        return FAILED;
    int r = PyList_Append(d->plan, step);
    Py_DECREF(step);
    return r < 0 ? FAILED : 0;
}

/* A seat's state for pricing: (counts, pongs, kongs, draws, void, (k0, k1, k2), size) */
static PyObject *seat_state(Deal *d, int seat, int extra_tile)
{
    int counts[KINDS];
    long keys[3] = {d->keys[seat][0], d->keys[seat][1], d->keys[seat][2]};
    memcpy(counts, d->hands[seat], sizeof counts);
    if (extra_tile != NO_TILE) {
        counts[extra_tile] += 1;
        keys[extra_tile / 9] += POW5[extra_tile % 9];
    }
    return Py_BuildValue("(NNNii(lll)i)", int_list(counts, KINDS), int_list(d->pongs[seat], d->npongs[seat]),
                         int_list(d->kongs[seat], d->nkongs[seat]), d->draws[seat], d->voids[seat], keys[0],
                         keys[1], keys[2], d->sizes[seat] + (extra_tile != NO_TILE));
}

static void end_deal(Deal *d, int reason)
{
    d->end_reason = reason;
    d->phase = ENDED;
    d->open = -1;
}

/* 血流成河: a winner stays in (nobody leaves) with its hand fixed (fast_state.FastState.hand_fixed) */
#define STAYS(d) ((d)->flags & R_BLOODY_FLOW)
#define LEFT(d, seat) (!STAYS(d) && (d)->won[seat])
#define FIXED(d, seat) (STAYS(d) && (d)->won[seat])

static int next_seat(Deal *d, int seat, int *out)
{
    for (int step = 1; step < d->players; step++) {
        int candidate = (seat + step) % d->players;
        if (!LEFT(d, candidate)) {
            *out = candidate;
            return 0;
        }
    }
    return GIVE_UP;
}

static int end_after_win(Deal *d)
{
    if (d->flags & R_FIRST_HU) {
        end_deal(d, END_FIRST_HU);
        return 1;
    }
    if (!STAYS(d) && d->nwon >= d->players - 1) {
        end_deal(d, END_THREE_WON);
        return 1;
    }
    return 0;
}

/* 最后四张: a seat that might win on its own draw: only Python can score it. */
static int check_missed_self_draw(Deal *d, int seat)
{
    if (!((d->flags & R_LAST_FOUR) && d->wall_left < LAST_FOUR && d->last_draw != NO_TILE))
        return 0;
    return shape_with(d, seat, NO_TILE) ? GIVE_UP : 0;
}

/* fast_state.FastState.record_passes: a forced win in the last four that might be missed */
static int record_passes(Deal *d, Open *o)
{
    if (!o->last_four || !(d->flags & R_LAST_FOUR))
        return 0;
    if (o->winners && !(d->flags & R_MULTIPLE_HU))
        return 0;
    for (int seat = 0; seat < d->players; seat++) {
        if (LEFT(d, seat) || seat == o->seat || (o->winners & (1 << seat)))
            continue;
        if (shape_with(d, seat, o->tile))
            return GIVE_UP;
    }
    return 0;
}

/* fast_state.FastState.passes: any tile the seat may have passed since its last draw, up
 * to opened[upto] (excluded), gives the deal up: the pass rule needs its fan. */
static int any_pass(Deal *d, int seat, int upto)
{
    if (d->pass_rule == PASS_OFF)
        return 0;
    for (int i = d->pass_from[seat]; i < upto; i++) {
        Open *o = &d->opened[i];
        if (o->last_four || o->seat == seat || (o->winners & (1 << seat)))
            continue;
        if (o->winners && !(d->flags & R_MULTIPLE_HU))
            continue;
        if (shape_with(d, seat, o->tile))
            return GIVE_UP;
    }
    return 0;
}

static int open_tile(Deal *d, int seat, int tile, int line, int rob)
{
    if (d->nopened >= MAX_OPEN)
        return GIVE_UP;
    Open *o = &d->opened[d->nopened];
    o->seat = seat;
    o->tile = tile;
    o->line = line;
    o->after_kong = rob ? 0 : d->after_kong;
    o->last_tile = rob ? 0 : (d->wall_left == 0 && d->last_draw != NO_TILE);
    o->last_four = rob ? 0 : d->wall_left < LAST_FOUR;
    o->rob = rob;
    o->winners = 0;
    d->open = d->nopened++;
    return 0;
}

static int close_claims(Deal *d)
{
    if (d->open < 0)
        return GIVE_UP;
    Open *o = &d->opened[d->open];
    TRY(record_passes(d, o));
    d->open = -1;
    if (o->rob && !o->winners)
        return 0;
    if (o->winners && end_after_win(d))
        return 0;
    if (d->wall_left == 0) {
        end_deal(d, END_WALL);
        return 0;
    }
    int from = o->seat;
    if (o->winners) {
        int far = -1, n = d->players;
        for (int w = 0; w < n; w++) {
            if ((o->winners & (1 << w)) && (far < 0 || (w - o->seat + n) % n > (far - o->seat + n) % n))
                far = w;
        }
        from = far;
    }
    TRY(next_seat(d, from, &d->current));
    d->phase = DRAW;
    return 0;
}

static int pay_kong(Deal *d, int seat, int tile, const char *kind, int line, int feeder, int earns, PyObject *rec)
{
    TRY(emit(d, Py_BuildValue("(iiisiiiO)", STEP_KONG, seat, tile, kind, line, feeder, earns, rec)));
    d->current = seat;
    d->after_kong = 1;
    d->last_draw = NO_TILE;
    d->phase = REPLACEMENT;
    return 0;
}

static int settle_added_kong(Deal *d)
{
    if (d->pending_seat < 0)
        return GIVE_UP;
    TRY(close_claims(d));
    int earns = d->pending_drawn || !(d->flags & R_ADDED_SAME_TURN);
    int seat = d->pending_seat;
    d->pending_seat = -1;
    return pay_kong(d, seat, d->pending_tile, "added", d->pending_line, -1, earns, d->pending_rec);
}

static int resolve_open(Deal *d)
{
    if (d->phase == ROB) {
        if (d->open >= 0 && d->opened[d->open].winners)
            return close_claims(d);
        return settle_added_kong(d);
    }
    if (d->phase == CLAIM)
        return close_claims(d);
    return 0;
}

#define NO_VOID_PHASE(d) do { if ((d)->phase == VOID_PHASE) return GIVE_UP; } while (0)
#define STILL_IN(d, seat) do { if (LEFT(d, seat)) return GIVE_UP; } while (0)

static int draw(Deal *d, int seat, int tile)
{
    NO_VOID_PHASE(d);
    STILL_IN(d, seat);
    if (d->phase == CLAIM || d->phase == ROB)
        TRY(resolve_open(d));
    if ((d->phase != DRAW && d->phase != REPLACEMENT) || seat != d->current || d->wall_left == 0)
        return GIVE_UP;
    int replacement = d->phase == REPLACEMENT;
    if (d->has_wall && tile != (replacement ? d->wall[d->wall_size - 1 - d->back] : d->wall[d->front]))
        return GIVE_UP;
    if (d->out_of_wall[tile] >= COPIES)
        return GIVE_UP;
    d->wall_left -= 1;
    d->out_of_wall[tile] += 1;
    if (replacement) {
        d->back += 1;
    } else {
        d->front += 1;
        d->after_kong = 0;
    }
    move(d, seat, tile, 1);
    d->draws[seat] += 1;
    d->last_draw = tile;
    d->pass_from[seat] = d->nopened;
    d->phase = ACT;
    return 0;
}

static int discard(Deal *d, int seat, int tile, int line)
{
    NO_VOID_PHASE(d);
    STILL_IN(d, seat);
    if (d->phase != ACT || seat != d->current || d->hands[seat][tile] == 0)
        return GIVE_UP;
    if (FIXED(d, seat) && d->last_draw != NO_TILE && tile != d->last_draw)
        return GIVE_UP; /* 胡后不改牌: a fixed hand throws the tile it drew */
    int suit = d->voids[seat];
    if (suit >= 0 && (d->flags & R_VOID_DISCARD_FIRST) && tile / 9 != suit) {
        for (int t = suit * 9; t < suit * 9 + 9; t++) {
            if (d->hands[seat][t])
                return GIVE_UP;
        }
    }
    if (d->wall_left < LAST_FOUR)
        TRY(check_missed_self_draw(d, seat));
    move(d, seat, tile, -1);
    d->any_discard = 1;
    TRY(open_tile(d, seat, tile, line, 0));
    d->last_draw = NO_TILE;
    d->phase = CLAIM;
    return 0;
}

/* fast_check._FastDeal.open_discard */
static int open_discard(Deal *d, Open **out)
{
    if (d->phase != CLAIM || d->open < 0)
        return GIVE_UP;
    Open *o = &d->opened[d->open];
    if (o->rob || o->winners)
        return GIVE_UP;
    *out = o;
    return 0;
}

static int claimable(Deal *d, Open *o, int seat, int tile, int needed)
{
    if (seat == o->seat || tile != o->tile || d->hands[seat][tile] < needed)
        return GIVE_UP;
    if ((d->flags & R_VOID_REQUIRED) && d->voids[seat] == tile / 9)
        return GIVE_UP;
    return 0;
}

static int pong(Deal *d, int seat, int tile)
{
    Open *o;
    NO_VOID_PHASE(d);
    STILL_IN(d, seat);
    TRY(open_discard(d, &o));
    TRY(claimable(d, o, seat, tile, 2));
    if (FIXED(d, seat))
        return GIVE_UP; /* a fixed hand may not pong */
    TRY(record_passes(d, o));
    TRY(any_pass(d, seat, d->nopened)); /* carry_passes: passes before the hand changes */
    d->pass_from[seat] = d->nopened;
    d->open = -1;
    move(d, seat, tile, -2);
    if (d->npongs[seat] >= 4)
        return GIVE_UP;
    d->pongs[seat][d->npongs[seat]++] = tile;
    d->any_claim = 1;
    d->current = seat;
    d->last_draw = NO_TILE;
    d->after_kong = 0;
    d->phase = ACT;
    return 0;
}

static int add_kong(Deal *d, int seat, int tile)
{
    if (d->nkongs[seat] >= 4)
        return GIVE_UP;
    d->kongs[seat][d->nkongs[seat]++] = tile;
    d->any_claim = 1;
    return 0;
}

static int kong(Deal *d, int seat, int tile, const char *kind, int line, PyObject *rec)
{
    NO_VOID_PHASE(d);
    STILL_IN(d, seat);
    if (FIXED(d, seat))
        return GIVE_UP; /* a fixed hand's kong must keep its waits: the Python moves check it */
    if (d->phase == ROB)
        TRY(resolve_open(d));
    if (strcmp(kind, "exposed") == 0) {
        Open *o;
        TRY(open_discard(d, &o));
        TRY(claimable(d, o, seat, tile, 3));
        if (d->wall_left == 0)
            return GIVE_UP;
        TRY(record_passes(d, o));
        d->open = -1;
        move(d, seat, tile, -3);
        TRY(add_kong(d, seat, tile));
        return pay_kong(d, seat, tile, "exposed", line, o->seat, 1, rec);
    }
    if (d->phase != ACT || seat != d->current || d->wall_left == 0)
        return GIVE_UP;
    TRY(check_missed_self_draw(d, seat));
    if (strcmp(kind, "concealed") == 0) {
        if (d->hands[seat][tile] < 4)
            return GIVE_UP;
        move(d, seat, tile, -4);
        TRY(add_kong(d, seat, tile));
        return pay_kong(d, seat, tile, "concealed", line, -1, 1, rec);
    }
    if (strcmp(kind, "added") != 0)
        return GIVE_UP;
    int at = -1;
    for (int i = 0; i < d->npongs[seat]; i++) {
        if (d->pongs[seat][i] == tile) {
            at = i;
            break;
        }
    }
    if (at < 0 || d->hands[seat][tile] < 1)
        return GIVE_UP;
    move(d, seat, tile, -1);
    for (int i = at; i + 1 < d->npongs[seat]; i++)
        d->pongs[seat][i] = d->pongs[seat][i + 1];
    d->npongs[seat] -= 1;
    TRY(add_kong(d, seat, tile));
    d->pending_seat = seat;
    d->pending_tile = tile;
    d->pending_line = line;
    d->pending_drawn = d->last_draw == tile;
    d->pending_rec = rec;
    TRY(open_tile(d, seat, tile, line, 1));
    d->phase = ROB;
    return 0;
}

static void mark_won(Deal *d, int seat)
{
    if (!d->won[seat]) {
        d->won[seat] = 1;
        d->nwon += 1;
    }
}

static int self_draw_win(Deal *d, int seat, int tile, int line, PyObject *rec)
{
    if (d->phase != ACT || seat != d->current)
        return GIVE_UP;
    int heavenly = seat == d->dealer && d->draws[seat] == 0 && !d->any_discard && !d->any_claim;
    if (d->last_draw == NO_TILE && !heavenly)
        return GIVE_UP;
    if (d->hands[seat][tile] == 0 || (!heavenly && tile != d->last_draw))
        return GIVE_UP;
    int earthly = seat != d->dealer && d->draws[seat] == 1 && !d->any_claim && d->last_draw != NO_TILE &&
                  !d->won[seat];
    int context = (d->after_kong ? C_AFTER_KONG : 0) | (d->wall_left == 0 ? C_LAST_TILE : 0) |
                  ((heavenly || earthly) ? C_FIRST_TURN : 0) | (heavenly ? C_DEALER : 0);
    TRY(emit(d, Py_BuildValue("(iiiiOiN)", STEP_SELF_DRAW, seat, tile, line, rec, context,
                              seat_state(d, seat, NO_TILE))));
    mark_won(d, seat);
    if (STAYS(d))
        move(d, seat, tile, -1); /* the winning tile is laid aside */
    if (end_after_win(d))
        return 0;
    if (d->wall_left == 0) {
        end_deal(d, END_WALL);
        return 0;
    }
    TRY(next_seat(d, seat, &d->current));
    d->last_draw = NO_TILE;
    d->phase = DRAW;
    return 0;
}

static int claim_win(Deal *d, int seat, int from, int tile, int line, PyObject *rec)
{
    if ((d->phase != CLAIM && d->phase != ROB) || d->open < 0)
        return GIVE_UP;
    Open *o = &d->opened[d->open];
    if (from != o->seat || tile != o->tile || seat == o->seat)
        return GIVE_UP;
    if ((o->winners & (1 << seat)) || (o->winners && !(d->flags & R_MULTIPLE_HU)))
        return GIVE_UP;
    if (!o->last_four)
        TRY(any_pass(d, seat, d->nopened - 1));
    int context = (o->after_kong ? C_AFTER_KONG : 0) | (o->rob ? C_ROB : 0) | (o->last_tile ? C_LAST_TILE : 0);
    TRY(emit(d, Py_BuildValue("(iiiiiOiN)", STEP_DISCARD_WIN, seat, from, tile, line, rec, context,
                              seat_state(d, seat, tile))));
    if (o->rob && d->pending_seat >= 0) { /* 抢杠胡: the added kong is void, the pong is back */
        int pending = d->pending_seat;
        int *kongs = d->kongs[pending];
        int at = -1;
        for (int i = 0; i < d->nkongs[pending]; i++) {
            if (kongs[i] == d->pending_tile) {
                at = i;
                break;
            }
        }
        if (at < 0 || d->npongs[pending] >= 4)
            return GIVE_UP;
        for (int i = at; i + 1 < d->nkongs[pending]; i++)
            kongs[i] = kongs[i + 1];
        d->nkongs[pending] -= 1;
        d->pongs[pending][d->npongs[pending]++] = d->pending_tile;
        TRY(emit(d, Py_BuildValue("(iiiiO)", STEP_ROBBED, pending, d->pending_tile, d->pending_line, d->pending_rec)));
        d->pending_seat = -1;
    }
    if (!o->winners && !STAYS(d)) /* 血流成河: the tile is laid aside */
        move(d, seat, tile, 1);
    o->winners |= 1 << seat;
    mark_won(d, seat);
    return 0;
}

static int void_declared(Deal *d, int seat, int suit)
{
    STILL_IN(d, seat);
    if (d->voids[seat] >= 0 || (d->phase != VOID_PHASE && (d->flags & R_VOID_REQUIRED)))
        return GIVE_UP;
    if (!d->in_set[suit * 9])
        return GIVE_UP; /* a suit the table does not play */
    d->voids[seat] = suit;
    if (d->phase == VOID_PHASE) {
        for (int other = 0; other < d->players; other++) {
            if (d->voids[other] < 0)
                return 0;
        }
        d->phase = ACT;
    }
    return 0;
}

/* fast_check._FastDeal.deal_end, up to 查叫 (the rest is priced in Python) */
static int deal_end(Deal *d)
{
    if ((d->phase == CLAIM || d->phase == ROB) && d->open >= 0) {
        Open *o = &d->opened[d->open];
        if (o->winners || (!o->rob && d->wall_left == 0))
            TRY(close_claims(d));
        else if (o->rob)
            return GIVE_UP;
    }
    if (d->phase == ACT && d->wall_left == 0 && d->last_draw != NO_TILE) {
        int seat = d->current;
        TRY(check_missed_self_draw(d, seat));
        move(d, seat, d->last_draw, -1);
        d->last_draw = NO_TILE;
        end_deal(d, END_WALL);
    }
    return d->phase == ENDED ? 0 : GIVE_UP;
}

/* ------------------------------------------------------------------ reading records */

static int small_int(PyObject *value, int low, int high, int *out)
{
    if (!PyLong_CheckExact(value))
        return GIVE_UP;
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return GIVE_UP;
    }
    if (v < low || v > high)
        return GIVE_UP;
    *out = (int)v;
    return 0;
}

static int attr_int(PyObject *rec, PyObject *name, int low, int high, int *out)
{
    PyObject *value = PyObject_GetAttr(rec, name);
    if (value == NULL)
        return FAILED;
    int r = small_int(value, low, high, out);
    Py_DECREF(value);
    return r;
}

static int attr_text(PyObject *rec, PyObject *name, char *out, Py_ssize_t size)
{
    PyObject *value = PyObject_GetAttr(rec, name);
    if (value == NULL)
        return FAILED;
    int r = GIVE_UP;
    Py_ssize_t n;
    const char *s = PyUnicode_Check(value) ? PyUnicode_AsUTF8AndSize(value, &n) : NULL;
    if (s != NULL && n < size) {
        memcpy(out, s, n + 1);
        r = 0;
    } else {
        PyErr_Clear();
    }
    Py_DECREF(value);
    return r;
}

static const char SUIT_LETTERS[] = "mps";

/* a tile name ("5m") as its id; anything else gives up (the reader's slow path spells it) */
static int attr_tile(PyObject *rec, PyObject *name, int *out)
{
    char text[4];
    TRY(attr_text(rec, name, text, sizeof text));
    const char *at = text[0] >= '1' && text[0] <= '9' && text[1] && !text[2] ? strchr(SUIT_LETTERS, text[1]) : NULL;
    if (at == NULL)
        return GIVE_UP;
    *out = (int)(at - SUIT_LETTERS) * 9 + (text[0] - '1');
    return 0;
}

static int play_record(Deal *d, PyObject *rec, int line)
{
    int seat, tile;
    if (PyLong_CheckExact(rec)) {
        int code;
        TRY(small_int(rec, 0, 26 * 16 + 15, &code));
        seat = (code >> 2) & 3;
        tile = code >> 4;
        if (seat >= d->players)
            return GIVE_UP;
        switch (code & 3) {
        case 0: return draw(d, seat, tile);
        case 1: return discard(d, seat, tile, line);
        case 2: return pong(d, seat, tile);
        default: return GIVE_UP;
        }
    }
    PyObject *type = (PyObject *)Py_TYPE(rec);
    if (type == types[5]) { /* void */
        char suit[4];
        TRY(attr_int(rec, s_seat, 0, d->players - 1, &seat));
        TRY(attr_text(rec, s_suit, suit, sizeof suit));
        const char *at = suit[0] && !suit[1] ? strchr(SUIT_LETTERS, suit[0]) : NULL;
        return at == NULL ? GIVE_UP : void_declared(d, seat, (int)(at - SUIT_LETTERS));
    }
    int kind = -1;
    for (int k = 0; k < 5; k++) {
        if (type == types[k])
            kind = k;
    }
    if (kind < 0)
        return GIVE_UP; /* 换三张, anything else: not here */
    TRY(attr_int(rec, s_seat, 0, d->players - 1, &seat));
    TRY(attr_tile(rec, s_tile, &tile));
    switch (kind) {
    case 0: return draw(d, seat, tile);
    case 1: return discard(d, seat, tile, line);
    case 2: return pong(d, seat, tile);
    case 3: {
        char text[16];
        TRY(attr_text(rec, s_kind, text, sizeof text));
        return kong(d, seat, tile, text, line, rec);
    }
    default: {
        NO_VOID_PHASE(d);
        STILL_IN(d, seat);
        PyObject *from = PyObject_GetAttr(rec, s_from);
        if (from == NULL)
            return FAILED;
        int from_seat = -1;
        int r = from == Py_None ? 0 : small_int(from, 0, d->players - 1, &from_seat);
        Py_DECREF(from);
        TRY(r);
        if (from_seat < 0)
            return self_draw_win(d, seat, tile, line, rec);
        return claim_win(d, seat, from_seat, tile, line, rec);
    }
    }
}

static int deal_in(Deal *d, PyObject *hands, PyObject *wall)
{
    int seen[KINDS] = {0};
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != d->players)
        return GIVE_UP;
    for (int seat = 0; seat < d->players; seat++) {
        PyObject *hand = PyTuple_GET_ITEM(hands, seat);
        if (!PyTuple_Check(hand) || PyTuple_GET_SIZE(hand) != d->hand_size + (seat == d->dealer))
            return GIVE_UP;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(hand); i++) {
            int tile;
            TRY(small_int(PyTuple_GET_ITEM(hand, i), 0, KINDS - 1, &tile));
            if (!d->in_set[tile])
                return GIVE_UP;
            move(d, seat, tile, 1);
            seen[tile] += 1;
        }
    }
    for (int t = 0; t < KINDS; t++) /* a kind outside the set is no tile of the wall */
        d->out_of_wall[t] = d->in_set[t] ? seen[t] : COPIES;
    if (wall != Py_None) {
        if (!PyTuple_Check(wall) || PyTuple_GET_SIZE(wall) != d->wall_size)
            return GIVE_UP;
        for (int i = 0; i < d->wall_size; i++) {
            TRY(small_int(PyTuple_GET_ITEM(wall, i), 0, KINDS - 1, &d->wall[i]));
            if (!d->in_set[d->wall[i]])
                return GIVE_UP;
            seen[d->wall[i]] += 1;
        }
        d->has_wall = 1;
    }
    for (int t = 0; t < KINDS; t++) {
        if (seen[t] > COPIES)
            return GIVE_UP;
    }
    if (d->flags & R_EXCHANGE)
        return GIVE_UP; /* 换三张 is the engine's */
    d->phase = (d->flags & R_VOID_REQUIRED) ? VOID_PHASE : ACT;
    return 0;
}

/* replay_moves(records, first_line, dealer, hands, wall, rule_flags, players, hand_size, wall_size, kinds)
 *   -> (plan, end_reason, finals: a SeatState a seat of the table) or None; the table
 *   (engine/table.py): the seats that play, a non-dealer's tiles, the wall's size and the
 *   kinds in the set (bit t: kind t) */
static PyObject *replay_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (shape_table == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables() first");
        return NULL;
    }
    if (nargs != 10 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "replay_moves(records, first_line, dealer, hands, wall, rule_flags, "
                                         "players, hand_size, wall_size, kinds)");
        return NULL;
    }
    long first = PyLong_AsLong(args[1]);
    long dealer = PyLong_AsLong(args[2]);
    long flags = PyLong_AsLong(args[5]);
    long players = PyLong_AsLong(args[6]);
    long hand_size = PyLong_AsLong(args[7]);
    long wall_size = PyLong_AsLong(args[8]);
    long kinds = PyLong_AsLong(args[9]);
    if (PyErr_Occurred())
        return NULL;
    if (players < 2 || players > 4 || hand_size < 1 || wall_size < 0 || wall_size > KINDS * COPIES) {
        PyErr_SetString(PyExc_ValueError, "replay_moves: no such table");
        return NULL;
    }
    if (dealer < 0 || dealer >= players)
        Py_RETURN_NONE;
    Deal *d = PyMem_Calloc(1, sizeof(Deal));
    if (d == NULL)
        return PyErr_NoMemory();
    d->flags = (int)flags;
    d->pass_rule = (flags & R_PASS_ANY) ? PASS_ANY : (flags & R_PASS_SAME) ? PASS_SAME_TILE : PASS_OFF;
    d->dealer = (int)dealer;
    d->current = (int)dealer;
    d->players = (int)players;
    d->hand_size = (int)hand_size;
    d->wall_size = (int)wall_size;
    for (int t = 0; t < KINDS; t++)
        d->in_set[t] = (int)((kinds >> t) & 1);
    d->wall_left = (int)wall_size;
    d->open = -1;
    d->last_draw = NO_TILE;
    d->pending_seat = -1;
    d->end_reason = -1;
    for (int seat = 0; seat < 4; seat++)
        d->voids[seat] = -1;
    PyObject *result = NULL;
    d->plan = PyList_New(0);
    int r = d->plan == NULL ? FAILED : deal_in(d, args[3], args[4]);
    PyObject *records = args[0];
    for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(records); i++) {
        if (d->phase == ENDED) {
            r = GIVE_UP;
            break;
        }
        r = play_record(d, PyList_GET_ITEM(records, i), (int)(first + i));
    }
    if (r == 0)
        r = deal_end(d);
    if (r == 0) {
        PyObject *finals = PyTuple_New(d->players);
        for (int seat = 0; finals != NULL && seat < d->players; seat++) {
            PyObject *state = seat_state(d, seat, NO_TILE);
            if (state == NULL) {
                Py_CLEAR(finals);
                break;
            }
            PyTuple_SET_ITEM(finals, seat, state);
        }
        if (finals != NULL)
            result = Py_BuildValue("(OiN)", d->plan, d->end_reason, finals);
    } else if (r == GIVE_UP) {
        result = Py_NewRef(Py_None);
    }
    Py_XDECREF(d->plan);
    PyMem_Free(d);
    return result;
}

/* set_tables(shape_keys, even_keys, types): the suit-key sets of engine.shapes and the record types */
static PyObject *set_tables(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *shape_keys, *even_keys, *record_types;
    if (!PyArg_ParseTuple(args, "OOO!", &shape_keys, &even_keys, &PyTuple_Type, &record_types))
        return NULL;
    if (PyTuple_GET_SIZE(record_types) != 6) {
        PyErr_SetString(PyExc_ValueError, "six record types");
        return NULL;
    }
    unsigned char *table = PyMem_Calloc(KEY_LIMIT, 1);
    if (table == NULL)
        return PyErr_NoMemory();
    PyObject *sets[2] = {shape_keys, even_keys};
    for (int bit = 0; bit < 2; bit++) {
        PyObject *iter = PyObject_GetIter(sets[bit]);
        PyObject *item;
        while (iter != NULL && (item = PyIter_Next(iter)) != NULL) {
            long key = PyLong_AsLong(item);
            Py_DECREF(item);
            if (key >= 0 && key < KEY_LIMIT)
                table[key] |= (unsigned char)(1 << bit);
        }
        Py_XDECREF(iter);
        if (PyErr_Occurred()) {
            PyMem_Free(table);
            return NULL;
        }
    }
    PyMem_Free(shape_table);
    shape_table = table;
    for (int i = 0; i < 6; i++) {
        Py_XDECREF(types[i]);
        types[i] = Py_NewRef(PyTuple_GET_ITEM(record_types, i));
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"replay_moves", (PyCFunction)(void (*)(void))replay_moves, METH_FASTCALL,
     "replay_moves(records, first_line, dealer, hands, wall, rule_flags, players, hand_size, wall_size, kinds) -> "
     "(plan, end_reason, finals) | None"},
    {"set_tables", set_tables, METH_VARARGS, "set_tables(shape_keys, even_keys, record_types)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ingest.replay._moves", "The moves of a deal in C (ingest/replay/fast_plan.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__moves(void)
{
    s_seat = PyUnicode_InternFromString("seat");
    s_tile = PyUnicode_InternFromString("tile");
    s_kind = PyUnicode_InternFromString("kind");
    s_from = PyUnicode_InternFromString("from_");
    s_suit = PyUnicode_InternFromString("suit");
    if (!s_seat || !s_tile || !s_kind || !s_from || !s_suit)
        return NULL;
    return PyModule_Create(&module);
}
