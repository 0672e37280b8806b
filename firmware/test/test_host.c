/* Host unit tests of the firmware's pure logic (CRC, framing, presence, ISO 14443 arithmetic)
 * and of the MFRC522 driver against the simulated chip of firmware/sim/fake_mfrc522.c.
 * `make -C firmware host-test` builds and runs them; pytest runs them too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/fake_mfrc522.h"
#include "../src/bus.h"
#include "../src/crc.h"
#include "../src/debounce.h"
#include "../src/iso14443.h"
#include "../src/mfrc522.h"
#include "../src/proto.h"

static int checks, failures;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        checks++;                                                                              \
        if (!(cond)) {                                                                         \
            failures++;                                                                        \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, __func__, #cond); \
        }                                                                                      \
    } while (0)

/* ---- the bus, wired to six simulated modules ---------------------------------------------- */
static fake_mfrc522_t chips[6];
static int selected = -1;
static uint16_t fake_ms;

void bus_select(uint8_t reader)
{
    selected = reader;
    fm_chip_select(&chips[reader], 0);
}

void bus_release(void)
{
    if (selected >= 0)
        fm_chip_select(&chips[selected], 1);
    selected = -1;
}

uint8_t bus_transfer(uint8_t out)
{
    return selected >= 0 ? fm_transfer(&chips[selected], out) : 0x00;
}

uint16_t bus_millis(void)
{
    return fake_ms++; /* every look at the clock costs a millisecond: waits always end */
}

static void reset_chips(void)
{
    for (int i = 0; i < 6; i++)
        fm_init(&chips[i]);
}

/* ---- CRC ---------------------------------------------------------------------------------- */
static void test_crc_check_values(void)
{
    const uint8_t digits[] = "123456789";
    /* The catalogue check values: CRC-16/MCRF4XX (init FFFF) and CRC-16/ISO-IEC-14443-3-A. */
    CHECK(crc_ccitt(digits, 9) == 0x6F91);
    CHECK(crc_a(digits, 9) == 0xBF05);
}

static void test_crc_a_hlta_example(void)
{
    /* ISO/IEC 14443-3: HLTA is "50 00" followed by its CRC_A "57 CD". */
    const uint8_t hlta[] = {0x50, 0x00};
    uint16_t crc = crc_a(hlta, 2);
    CHECK((crc & 0xFF) == 0x57 && (crc >> 8) == 0xCD);
}

static void test_crc_matches_bitwise_definition(void)
{
    /* avr-libc documents _crc_ccitt_update as the reflected polynomial 0x8408; compare the
     * byte-wise formula with the bit-by-bit definition for every byte and several states. */
    const uint16_t states[] = {0x0000, 0xFFFF, 0x6363, 0x1234, 0x8408};
    for (unsigned s = 0; s < sizeof states / sizeof states[0]; s++)
        for (unsigned byte = 0; byte < 256; byte++) {
            uint16_t crc = states[s] ^ (uint16_t)byte;
            for (int i = 0; i < 8; i++)
                crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0x8408) : (uint16_t)(crc >> 1);
            CHECK(crc_ccitt_update(states[s], (uint8_t)byte) == crc);
        }
}

/* ---- framing ------------------------------------------------------------------------------ */
static uint8_t make(uint8_t *out, uint8_t seq, uint8_t id, uint8_t arg)
{
    uint8_t payload[2] = {id, arg};
    return proto_frame(out, seq, payload, 2);
}

static void test_frame_layout(void)
{
    uint8_t out[PROTO_MAX_FRAME], payload[1] = {CMD_IDENTIFY};
    uint8_t n = proto_frame(out, 0x13, payload, 1);
    uint16_t crc = crc_ccitt(out, 3);
    CHECK(n == 6);
    CHECK(out[0] == 6 && out[1] == 0x13 && out[2] == CMD_IDENTIFY);
    CHECK(out[3] == (crc >> 8) && out[4] == (crc & 0xFF) && out[5] == PROTO_SYNC);
    CHECK(proto_frame(out, 0, payload, 0) == 0);
    {
        uint8_t big[PROTO_MAX_PAYLOAD + 1] = {0};
        CHECK(proto_frame(out, 0, big, PROTO_MAX_PAYLOAD) == PROTO_MAX_FRAME);
        CHECK(proto_frame(out, 0, big, PROTO_MAX_PAYLOAD + 1) == 0);
    }
}

/* Feed bytes; return how many frames came out, the last payload in *last. */
static int feed(proto_rx_t *rx, const uint8_t *bytes, int n, uint8_t *last)
{
    uint8_t payload[PROTO_MAX_PAYLOAD];
    int frames = 0;
    for (int i = 0; i < n; i++) {
        uint8_t len = proto_rx_byte(rx, bytes[i], payload);
        if (len) {
            frames++;
            if (last)
                memcpy(last, payload, len);
        }
    }
    return frames;
}

static void test_rx_good_frames_and_split(void)
{
    proto_rx_t rx;
    uint8_t a[PROTO_MAX_FRAME], b[PROTO_MAX_FRAME], last[PROTO_MAX_PAYLOAD];
    uint8_t na = make(a, 1, CMD_IDENTIFY, 7), nb = make(b, 2, CMD_IDENTIFY, 9);
    proto_rx_init(&rx);
    CHECK(feed(&rx, a, 3, last) == 0); /* a frame split across reads */
    CHECK(feed(&rx, a + 3, na - 3, last) == 1 && last[1] == 7);
    CHECK(feed(&rx, b, nb, last) == 1 && last[1] == 9);
    CHECK(rx.good == 2 && rx.bad == 0);
}

static void test_rx_resync_after_garbage_wrong_crc_truncation(void)
{
    proto_rx_t rx;
    uint8_t f[PROTO_MAX_FRAME], last[PROTO_MAX_PAYLOAD];
    uint8_t n = make(f, 3, CMD_IDENTIFY, 42);
    const uint8_t garbage[] = {0x33, 0x7E, 0x12, 0x00, 0x7E, 0x10, 0x20};
    proto_rx_init(&rx);
    CHECK(feed(&rx, garbage, sizeof garbage, last) == 0);
    CHECK(feed(&rx, f, n, last) == 1 && last[1] == 42);
    CHECK(rx.bad == 1);

    /* a wrong checksum, then a good frame */
    f[2] ^= 0x01;
    CHECK(feed(&rx, f, n, last) == 0);
    f[2] ^= 0x01;
    CHECK(feed(&rx, f, n, last) == 1);
    CHECK(rx.bad == 2);

    /* a truncated frame (its last two bytes lost), then a good frame */
    CHECK(feed(&rx, f, n - 2, last) == 0);
    CHECK(feed(&rx, f, n, last) == 1 && last[1] == 42);
    CHECK(rx.bad == 3 && rx.good == 3);
}

static void test_rx_flood(void)
{
    proto_rx_t rx;
    uint8_t f[PROTO_MAX_FRAME], last[PROTO_MAX_PAYLOAD];
    uint8_t n = make(f, 4, CMD_IDENTIFY, 5);
    uint32_t state = 12345;
    proto_rx_init(&rx);
    for (int i = 0; i < 100000; i++) {
        uint8_t byte;
        state = state * 1103515245u + 12345u;
        byte = (uint8_t)(state >> 16);
        feed(&rx, &byte, 1, NULL);
    }
    last[1] = 0;
    /* The flood may have left a plausible frame start pending; a good frame still gets through
     * once its own bytes complete (twice at most: the first may finish the pending candidate). */
    {
        int got = feed(&rx, f, n, last);
        if (!got)
            got = feed(&rx, f, n, last);
        CHECK(got == 1 && last[1] == 5);
    }
    CHECK(rx.bad >= 1);
}

/* ---- presence ----------------------------------------------------------------------------- */
static void test_presence_held_card_is_one_tap(void)
{
    presence_t p;
    uint8_t uid[4] = {1, 2, 3, 4}, old[UID_MAX], old_len = 0;
    memset(&p, 0, sizeof p);
    CHECK(presence_update(&p, uid, 4, old, &old_len) == PRESENCE_ARRIVED);
    for (int i = 0; i < 50; i++)
        CHECK(presence_update(&p, uid, 4, old, &old_len) == PRESENCE_NONE);
}

static void test_presence_removal_after_misses(void)
{
    presence_t p;
    uint8_t uid[7] = {4, 1, 2, 3, 4, 5, 6}, old[UID_MAX], old_len = 0;
    memset(&p, 0, sizeof p);
    presence_update(&p, uid, 7, old, &old_len);
    /* one missed poll (a card at the edge of the field) is not a removal */
    CHECK(presence_update(&p, NULL, 0, old, &old_len) == PRESENCE_NONE);
    CHECK(presence_update(&p, uid, 7, old, &old_len) == PRESENCE_NONE);
    for (int i = 0; i < DEBOUNCE_MISSES - 1; i++)
        CHECK(presence_update(&p, NULL, 0, old, &old_len) == PRESENCE_NONE);
    CHECK(presence_update(&p, NULL, 0, old, &old_len) == PRESENCE_REMOVED);
    CHECK(old_len == 7 && memcmp(old, uid, 7) == 0);
    CHECK(presence_update(&p, NULL, 0, old, &old_len) == PRESENCE_NONE);
}

static void test_presence_swap(void)
{
    presence_t p;
    uint8_t a[4] = {1, 2, 3, 4}, b[4] = {9, 9, 9, 9}, old[UID_MAX], old_len = 0;
    memset(&p, 0, sizeof p);
    presence_update(&p, a, 4, old, &old_len);
    CHECK(presence_update(&p, b, 4, old, &old_len) == (PRESENCE_REMOVED | PRESENCE_ARRIVED));
    CHECK(old_len == 4 && memcmp(old, a, 4) == 0 && memcmp(p.uid, b, 4) == 0);
}

/* ---- ISO 14443 arithmetic ----------------------------------------------------------------- */
static void test_nvb(void)
{
    CHECK(iso_nvb(0) == 0x20);  /* SEL + NVB only */
    CHECK(iso_nvb(40) == 0x70); /* a full SELECT */
    CHECK(iso_nvb(11) == 0x33);
}

static void test_merge_with_alignment(void)
{
    uint8_t cl[5] = {0x05, 0x00, 0, 0, 0};
    /* 11 bits known (byte 0 and 3 bits of byte 1 = 0b101); the card sent the rest of byte 1
     * from bit 3 on, then three whole bytes */
    const uint8_t rx[4] = {0xA8, 0x11, 0x22, 0x33};
    cl[1] = 0x05;
    CHECK(iso_merge(cl, 11, rx, 4, 0) == 40);
    CHECK(cl[1] == 0xAD && cl[2] == 0x11 && cl[4] == 0x33);
    CHECK(iso_merge(cl, 8, rx, 5, 0) == 0xFF); /* would not fit */
}

static void test_uid_levels(void)
{
    uint8_t uid[10], len = 0;
    uint8_t cl1[5] = {PICC_CT, 0x04, 0xA1, 0xB2, 0};
    uint8_t cl2[5] = {0xC3, 0xD4, 0xE5, 0xF6, 0};
    cl1[4] = iso_bcc(cl1);
    cl2[4] = iso_bcc(cl2);
    CHECK(iso_uid_add_level(uid, &len, cl1, SAK_CASCADE) == 1);
    CHECK(iso_uid_add_level(uid, &len, cl2, 0x00) == 0);
    CHECK(len == 7 && uid[0] == 0x04 && uid[6] == 0xF6);
    len = 0;
    cl1[4] ^= 1; /* bad BCC */
    CHECK(iso_uid_add_level(uid, &len, cl1, SAK_CASCADE) == -1);
    len = 0;
    CHECK(iso_uid_add_level(uid, &len, cl2, SAK_CASCADE) == -1); /* cascade without the tag */
}

/* ---- the MFRC522 driver against the simulated chip ---------------------------------------- */
static int read_uid(uint8_t reader, uint8_t *uid, uint8_t *len)
{
    return mfrc_read_uid(reader, uid, len);
}

static void test_driver_reads_4_7_10_byte_uids(void)
{
    static const uint8_t u4[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    static const uint8_t u7[7] = {0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6};
    static const uint8_t u10[10] = {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99};
    const uint8_t *uids[3] = {u4, u7, u10};
    const uint8_t lens[3] = {4, 7, 10};
    uint8_t uid[10], len;
    reset_chips();
    for (int i = 0; i < 3; i++) {
        CHECK(mfrc_init((uint8_t)i) == 0x92);
        CHECK(fm_place(&chips[i], uids[i], lens[i]) == 0);
        CHECK(read_uid((uint8_t)i, uid, &len) == MF_OK);
        CHECK(len == lens[i] && memcmp(uid, uids[i], lens[i]) == 0);
        CHECK(chips[i].firmware_errors == 0);
    }
}

static void test_driver_card_left_on_reader_stays_readable(void)
{
    static const uint8_t u7[7] = {0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60};
    uint8_t uid[10], len;
    reset_chips();
    mfrc_init(0);
    fm_place(&chips[0], u7, 7);
    /* HLTA after each read puts the card in HALT; WUPA wakes it on the next poll */
    for (int i = 0; i < 5; i++) {
        CHECK(read_uid(0, uid, &len) == MF_OK && len == 7);
        CHECK(chips[0].cards[0].state == 3 /* FM_HALT */);
    }
}

static void test_driver_empty_reader_times_out(void)
{
    uint8_t uid[10], len = 99;
    reset_chips();
    mfrc_init(2);
    CHECK(read_uid(2, uid, &len) == MF_TIMEOUT && len == 0);
}

static void test_driver_muted_module(void)
{
    uint8_t uid[10], len;
    reset_chips();
    chips[4].muted = 1;
    CHECK(!mfrc_version_ok(mfrc_init(4)));
    CHECK(read_uid(4, uid, &len) != MF_OK);
}

static void test_driver_two_cards_collision(void)
{
    /* Two cards that differ first in bit 0, and two that agree on their first two bytes and
     * differ later (the second anticollision round then starts mid-UID, with RxAlign). */
    static const uint8_t a[4] = {0x10, 0x22, 0x33, 0x44}, b[4] = {0x11, 0x22, 0x33, 0x44};
    static const uint8_t c[7] = {0x04, 0x55, 0x66, 0x77, 0x01, 0x02, 0x03};
    static const uint8_t d[7] = {0x04, 0x55, 0x66, 0x77, 0x01, 0x0A, 0x03};
    uint8_t uid[10], len;
    reset_chips();
    mfrc_init(0);
    fm_place(&chips[0], a, 4);
    fm_place(&chips[0], b, 4);
    CHECK(read_uid(0, uid, &len) == MF_OK && len == 4);
    CHECK(memcmp(uid, b, 4) == 0); /* the card with 1 at the first differing bit */
    mfrc_init(1);
    fm_place(&chips[1], c, 7);
    fm_place(&chips[1], d, 7);
    CHECK(read_uid(1, uid, &len) == MF_OK && len == 7);
    CHECK(memcmp(uid, d, 7) == 0); /* 0x0A has bit 3 set where 0x02 has 0 */
    /* the same card again on every poll: both wake, the same one wins */
    CHECK(read_uid(1, uid, &len) == MF_OK && memcmp(uid, d, 7) == 0);
    CHECK(chips[0].firmware_errors == 0 && chips[1].firmware_errors == 0);
}

int main(void)
{
    test_crc_check_values();
    test_crc_a_hlta_example();
    test_crc_matches_bitwise_definition();
    test_frame_layout();
    test_rx_good_frames_and_split();
    test_rx_resync_after_garbage_wrong_crc_truncation();
    test_rx_flood();
    test_presence_held_card_is_one_tap();
    test_presence_removal_after_misses();
    test_presence_swap();
    test_nvb();
    test_merge_with_alignment();
    test_uid_levels();
    test_driver_reads_4_7_10_byte_uids();
    test_driver_card_left_on_reader_stays_readable();
    test_driver_empty_reader_times_out();
    test_driver_muted_module();
    test_driver_two_cards_collision();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
