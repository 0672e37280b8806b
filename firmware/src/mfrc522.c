#include <string.h>

#include "bus.h"
#include "crc.h"
#include "iso14443.h"
#include "mfrc522.h"

/* How long the board waits for a Transceive to finish. The module's own timer (set below to
 * 2 ms) ends a frame nobody answers; this bound only catches a module that stopped working. */
#define TRANSCEIVE_GUARD_MS 10

/* SPI address byte (datasheet 8.1.2.3): bit 7 = read, bits 6..1 = register, bit 0 = 0. */
static uint8_t read_reg(uint8_t r, uint8_t reg)
{
    uint8_t v;
    bus_select(r);
    bus_transfer((uint8_t)(0x80 | (reg << 1)));
    v = bus_transfer(0x00);
    bus_release();
    return v;
}

static void write_reg(uint8_t r, uint8_t reg, uint8_t v)
{
    bus_select(r);
    bus_transfer((uint8_t)(reg << 1));
    bus_transfer(v);
    bus_release();
}

static void write_fifo(uint8_t r, const uint8_t *buf, uint8_t n)
{
    bus_select(r);
    bus_transfer((uint8_t)(REG_FIFO_DATA << 1));
    while (n--)
        bus_transfer(*buf++);
    bus_release();
}

/* Reading n bytes: send the address n times, then 0; each byte clocked in answers the
 * address sent before it. */
static void read_fifo(uint8_t r, uint8_t *buf, uint8_t n)
{
    uint8_t address = (uint8_t)(0x80 | (REG_FIFO_DATA << 1));
    if (n == 0)
        return;
    bus_select(r);
    bus_transfer(address);
    while (--n)
        *buf++ = bus_transfer(address);
    *buf = bus_transfer(0x00);
    bus_release();
}

static void clear_bits(uint8_t r, uint8_t reg, uint8_t mask)
{
    write_reg(r, reg, (uint8_t)(read_reg(r, reg) & (uint8_t)~mask));
}

static void set_bits(uint8_t r, uint8_t reg, uint8_t mask)
{
    write_reg(r, reg, (uint8_t)(read_reg(r, reg) | mask));
}

uint8_t mfrc_version(uint8_t reader)
{
    return read_reg(reader, REG_VERSION);
}

uint8_t mfrc_version_ok(uint8_t version)
{
    /* A missing module leaves MISO floating or low: 0xFF or 0x00. Clones report other values
     * (0x88 for FM17522, 0x12 for some), which work, so only those two mean "not there". */
    return version != 0x00 && version != 0xFF;
}

uint8_t mfrc_init(uint8_t reader)
{
    uint16_t start;
    uint8_t version = mfrc_version(reader);
    if (!mfrc_version_ok(version))
        return version;
    write_reg(reader, REG_COMMAND, CMD_SOFT_RESET);
    /* The oscillator restarts after a soft reset; the PowerDown bit clears when it is ready. */
    start = bus_millis();
    while ((read_reg(reader, REG_COMMAND) & COMMAND_POWER_DOWN) && (uint16_t)(bus_millis() - start) < 50)
        ;
    /* Timer: TAuto starts it at the end of every transmission, so a frame nobody answers ends
     * with TimerIRq. f_timer = 13.56 MHz / (2 * 169 + 1) = 40 kHz (25 us); reload 80 = 2 ms,
     * ample for an answer, which starts within about 90 us of the reader's frame. */
    write_reg(reader, REG_T_MODE, 0x80);
    write_reg(reader, REG_T_PRESCALER, 0xA9);
    write_reg(reader, REG_T_RELOAD_H, 0x00);
    write_reg(reader, REG_T_RELOAD_L, 80);
    write_reg(reader, REG_TX_ASK, 0x40);  /* Force100ASK: type A needs 100 % ASK */
    write_reg(reader, REG_MODE, 0x3D);    /* CRC preset 6363h (CRC_A), for completeness */
    write_reg(reader, REG_TX_MODE, 0x00); /* no hardware CRC: the firmware adds CRC_A itself */
    write_reg(reader, REG_RX_MODE, 0x00);
    set_bits(reader, REG_TX_CONTROL, TX_CONTROL_ANTENNA);
    return version;
}

typedef struct {
    uint8_t data[8];
    uint8_t len;
    uint8_t last_bits; /* valid bits in the last byte, 0 = 8 */
    uint8_t coll_pos;  /* on MF_COLLISION: CollReg's position, 1..32 */
} answer_t;

/* Send tx (its last byte carrying tx_last_bits bits, 0 = 8) and collect the answer, which the
 * module stores from bit rx_align of the first FIFO byte on. */
static mf_status_t transceive(uint8_t r, const uint8_t *tx, uint8_t tx_len, uint8_t tx_last_bits,
                              uint8_t rx_align, answer_t *answer)
{
    uint8_t irq, error, level;
    uint16_t start;
    write_reg(r, REG_COMMAND, CMD_IDLE);
    write_reg(r, REG_COM_IRQ, 0x7F); /* Set1 = 0: clear every interrupt request bit */
    write_reg(r, REG_FIFO_LEVEL, FIFO_FLUSH);
    write_fifo(r, tx, tx_len);
    write_reg(r, REG_BIT_FRAMING, (uint8_t)((rx_align << 4) | tx_last_bits));
    write_reg(r, REG_COMMAND, CMD_TRANSCEIVE);
    set_bits(r, REG_BIT_FRAMING, BIT_FRAMING_START_SEND);
    start = bus_millis();
    for (;;) {
        irq = read_reg(r, REG_COM_IRQ);
        if (irq == 0xFF)
            return MF_NO_CHIP; /* every bit set at once: a floating bus, not a module */
        if (irq & (IRQ_RX | IRQ_IDLE))
            break;
        if (irq & IRQ_TIMER)
            return MF_TIMEOUT;
        if ((uint16_t)(bus_millis() - start) > TRANSCEIVE_GUARD_MS)
            return MF_NO_CHIP;
    }
    clear_bits(r, REG_BIT_FRAMING, BIT_FRAMING_START_SEND);
    error = read_reg(r, REG_ERROR);
    if (error & (ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL))
        return MF_ERROR;
    level = read_reg(r, REG_FIFO_LEVEL) & 0x7F;
    if (level > sizeof answer->data)
        return MF_ERROR;
    answer->len = level;
    read_fifo(r, answer->data, level);
    answer->last_bits = read_reg(r, REG_CONTROL) & 0x07;
    if (error & ERR_COLL) {
        uint8_t coll = read_reg(r, REG_COLL);
        if (coll & COLL_POS_NOT_VALID)
            return MF_ERROR;
        answer->coll_pos = (uint8_t)((coll & 0x1F) ? (coll & 0x1F) : 32);
        return MF_COLLISION;
    }
    return MF_OK;
}

static void append_crc_a(uint8_t *frame, uint8_t len)
{
    uint16_t crc = crc_a(frame, len);
    frame[len] = (uint8_t)(crc & 0xFF); /* CRC_A goes out low byte first */
    frame[len + 1] = (uint8_t)(crc >> 8);
}

static uint8_t crc_a_ok(const uint8_t *frame, uint8_t len_with_crc)
{
    uint16_t crc = crc_a(frame, (uint8_t)(len_with_crc - 2));
    return frame[len_with_crc - 2] == (uint8_t)(crc & 0xFF) && frame[len_with_crc - 1] == (uint8_t)(crc >> 8);
}

/* WUPA wakes cards in IDLE and in HALT, so a card we halted after reading it answers again on
 * the next poll: a card left on the reader stays present. (REQA would skip it.) */
static mf_status_t wupa(uint8_t r)
{
    uint8_t cmd = PICC_WUPA;
    answer_t answer;
    mf_status_t status = transceive(r, &cmd, 1, 7, 0, &answer);
    if (status == MF_COLLISION)
        return MF_OK; /* two cards with different ATQAs: anticollision sorts them out */
    if (status != MF_OK)
        return status;
    if (answer.len != 2 || answer.last_bits != 0)
        return MF_ERROR; /* an ATQA is exactly 16 bits */
    return MF_OK;
}

/* Anticollision at one cascade level: find the five bytes of UID CLn of one card. When cards
 * disagree on a bit, choose the card with 1 there and carry on with the bits known so far. */
static mf_status_t anticollision(uint8_t r, uint8_t sel, uint8_t *cl)
{
    uint8_t known = 0, frame[7], rounds;
    answer_t answer;
    memset(cl, 0, 5);
    for (rounds = 0; rounds < 33; rounds++) {
        uint8_t whole = (uint8_t)(known / 8), part = (uint8_t)(known % 8);
        uint8_t tx_len = (uint8_t)(2 + whole + (part ? 1 : 0));
        mf_status_t status;
        frame[0] = sel;
        frame[1] = iso_nvb(known);
        memcpy(frame + 2, cl, (size_t)(tx_len - 2));
        clear_bits(r, REG_COLL, COLL_VALUES_AFTER_COLL); /* bits after a collision read as 0 */
        status = transceive(r, frame, tx_len, part, part, &answer);
        if (status != MF_OK && status != MF_COLLISION)
            return status;
        known = iso_merge(cl, known, answer.data, answer.len, answer.last_bits);
        if (known == 0xFF)
            return MF_ERROR;
        if (status == MF_OK)
            return known == 40 && iso_bcc(cl) == cl[4] ? MF_OK : MF_ERROR;
        {
            /* CollReg counts the answer's bits as stored in the FIFO, from bit 0 of its first
             * byte (so including RxAlign): position p is bit p - 1 of that byte stream, which
             * starts at byte `whole` of UID CLn. */
            uint8_t bit = (uint8_t)(whole * 8 + answer.coll_pos - 1);
            if (bit >= 40 || bit < (uint8_t)(whole * 8 + part))
                return MF_ERROR;
            cl[bit / 8] |= (uint8_t)(1u << (bit % 8));
            known = (uint8_t)(bit + 1);
        }
    }
    return MF_ERROR;
}

static mf_status_t select_level(uint8_t r, uint8_t sel, const uint8_t *cl, uint8_t *sak)
{
    uint8_t frame[9];
    answer_t answer;
    mf_status_t status;
    frame[0] = sel;
    frame[1] = PICC_NVB_SELECT;
    memcpy(frame + 2, cl, 5);
    append_crc_a(frame, 7);
    status = transceive(r, frame, 9, 0, 0, &answer);
    if (status != MF_OK)
        return status == MF_COLLISION ? MF_ERROR : status;
    if (answer.len != 3 || answer.last_bits != 0 || !crc_a_ok(answer.data, 3))
        return MF_ERROR; /* SAK is one byte and its CRC_A */
    *sak = answer.data[0];
    return MF_OK;
}

static void hlta(uint8_t r)
{
    uint8_t frame[4] = {PICC_HLTA, 0x00, 0, 0};
    answer_t answer;
    append_crc_a(frame, 2);
    /* A halted card does not answer: the timeout is the success. */
    (void)transceive(r, frame, 4, 0, 0, &answer);
}

mf_status_t mfrc_read_uid(uint8_t reader, uint8_t *uid, uint8_t *uid_len)
{
    static const uint8_t sel_codes[3] = {PICC_SEL_CL1, PICC_SEL_CL2, PICC_SEL_CL3};
    uint8_t level, cl[5], sak = 0;
    mf_status_t status = wupa(reader);
    *uid_len = 0;
    if (status != MF_OK)
        return status;
    for (level = 0; level < 3; level++) {
        int8_t more;
        status = anticollision(reader, sel_codes[level], cl);
        if (status == MF_OK)
            status = select_level(reader, sel_codes[level], cl, &sak);
        if (status != MF_OK)
            break;
        more = iso_uid_add_level(uid, uid_len, cl, sak);
        if (more < 0) {
            status = MF_ERROR;
            break;
        }
        if (more == 0) {
            hlta(reader);
            return MF_OK;
        }
    }
    *uid_len = 0;
    return status == MF_OK ? MF_ERROR : status;
}
