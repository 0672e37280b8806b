#include <string.h>

#include "../src/crc.h"
#include "../src/iso14443.h"
#include "../src/mfrc522.h"
#include "fake_mfrc522.h"

enum { FM_IDLE, FM_READY, FM_ACTIVE, FM_HALT };

#define VERSION_V2 0x92

static void reset_registers(fake_mfrc522_t *m)
{
    memset(m->regs, 0, sizeof m->regs);
    /* Reset values from the datasheet's register tables. */
    m->regs[REG_COMMAND] = 0x20;
    m->regs[REG_COM_IEN] = 0x80;
    m->regs[REG_COM_IRQ] = 0x14;
    m->regs[REG_STATUS1] = 0x21;
    m->regs[REG_WATER_LEVEL] = 0x08;
    m->regs[REG_CONTROL] = 0x10;
    m->regs[REG_COLL] = 0xA0;
    m->regs[REG_MODE] = 0x3F;
    m->regs[REG_TX_CONTROL] = 0x80;
    m->regs[REG_VERSION] = VERSION_V2;
    m->fifo_len = 0;
}

void fm_init(fake_mfrc522_t *m)
{
    memset(m, 0, sizeof *m);
    reset_registers(m);
}

static void firmware_error(fake_mfrc522_t *m, const char *what)
{
    m->firmware_errors++;
    m->last_firmware_error = what;
}

/* ---- the cards ------------------------------------------------------------------------- */

static uint8_t levels_of(const fm_card_t *c)
{
    return c->uid_len == 4 ? 1 : c->uid_len == 7 ? 2 : 3;
}

/* UID CLn of a card at a cascade level (see iso14443.h). */
static void card_cl(const fm_card_t *c, uint8_t level, uint8_t *cl)
{
    uint8_t last = (uint8_t)(level + 1 == levels_of(c));
    if (last) {
        memcpy(cl, c->uid + c->uid_len - 4, 4);
    } else {
        cl[0] = PICC_CT;
        memcpy(cl + 1, c->uid + 3 * level, 3);
    }
    cl[4] = iso_bcc(cl);
}

static uint8_t card_sak(const fm_card_t *c, uint8_t level)
{
    if (level + 1 < levels_of(c))
        return SAK_CASCADE;
    return c->uid_len == 4 ? 0x08 : 0x00; /* MIFARE Classic 1K / NTAG21x */
}

static void fall_back(fm_card_t *c)
{
    c->state = c->halted ? FM_HALT : FM_IDLE;
    c->level = 0;
}

static uint8_t get_bit(const uint8_t *bytes, uint16_t n)
{
    return (uint8_t)((bytes[n / 8] >> (n % 8)) & 1);
}

static void put_bit(uint8_t *bytes, uint16_t n, uint8_t v)
{
    if (v)
        bytes[n / 8] |= (uint8_t)(1u << (n % 8));
    else
        bytes[n / 8] &= (uint8_t)~(1u << (n % 8));
}

/* One card's answer to a frame of nbits bits: returns its length in bits (0: silent). */
static uint8_t card_answer(fm_card_t *c, const uint8_t *f, uint16_t nbits, uint8_t *out)
{
    uint8_t cl[5];
    memset(out, 0, 8);
    if (nbits == 7) { /* short frame */
        uint8_t cmd = f[0] & 0x7F;
        if ((cmd == PICC_WUPA && c->state != FM_ACTIVE) || (cmd == PICC_REQA && c->state == FM_IDLE)) {
            c->halted = cmd == PICC_WUPA ? (uint8_t)(c->state == FM_HALT) : 0;
            c->state = FM_READY;
            c->level = 0;
            out[0] = (uint8_t)(0x04 | ((levels_of(c) - 1) << 6)); /* ATQA: UID size in bits 7..6 */
            out[1] = 0x00;
            return 16;
        }
        if (c->state != FM_HALT)
            fall_back(c);
        return 0;
    }
    if (nbits == 32 && f[0] == PICC_HLTA && f[1] == 0x00) {
        if (c->state == FM_ACTIVE && crc_a(f, 2) == (uint16_t)(f[2] | (f[3] << 8))) {
            c->state = FM_HALT;
            c->halted = 1;
        }
        return 0;
    }
    if (c->state == FM_READY && nbits >= 16 && f[0] == (uint8_t)(PICC_SEL_CL1 + 2 * c->level)) {
        uint8_t nvb = f[1];
        uint16_t known = (uint16_t)(((nvb >> 4) - 2) * 8 + (nvb & 0x07));
        uint16_t i;
        card_cl(c, c->level, cl);
        if (nvb == PICC_NVB_SELECT) {
            if (nbits != 72 || memcmp(f + 2, cl, 5) != 0 || crc_a(f, 7) != (uint16_t)(f[7] | (f[8] << 8))) {
                fall_back(c);
                return 0;
            }
            out[0] = card_sak(c, c->level);
            {
                uint16_t crc = crc_a(out, 1);
                out[1] = (uint8_t)(crc & 0xFF);
                out[2] = (uint8_t)(crc >> 8);
            }
            if (out[0] & SAK_CASCADE)
                c->level++;
            else
                c->state = FM_ACTIVE;
            return 24;
        }
        if ((nvb >> 4) < 2 || (nvb >> 4) > 6 || known > 32 || nbits != 16 + known) {
            fall_back(c);
            return 0;
        }
        for (i = 0; i < known; i++)
            if (get_bit(f + 2, i) != get_bit(cl, i))
                return 0; /* not this card: it keeps quiet and stays READY */
        for (i = known; i < 40; i++)
            put_bit(out, (uint16_t)(i - known), get_bit(cl, i));
        return (uint8_t)(40 - known);
    }
    if (c->state != FM_HALT)
        fall_back(c);
    return 0;
}

/* ---- the Transceive command ------------------------------------------------------------ */

static void transceive(fake_mfrc522_t *m)
{
    uint8_t frame[64], answer[8], merged[8], tx_last = m->regs[REG_BIT_FRAMING] & 0x07;
    uint8_t rx_align = (m->regs[REG_BIT_FRAMING] >> 4) & 0x07;
    uint8_t i, responders = 0, answer_bits = 0, collision = 0, coll_bit = 0;
    uint16_t nbits, b;
    uint8_t field = (m->regs[REG_TX_CONTROL] & TX_CONTROL_ANTENNA) == TX_CONTROL_ANTENNA;

    m->transceives++;
    if (m->regs[REG_TX_MODE] & 0x80 || m->regs[REG_RX_MODE] & 0x80)
        firmware_error(m, "TxCRCEn/RxCRCEn set: the firmware should add CRC_A itself");
    if (!(m->regs[REG_T_MODE] & 0x80))
        firmware_error(m, "timer not in TAuto mode: an unanswered frame would never end");
    nbits = m->fifo_len ? (uint16_t)((m->fifo_len - 1) * 8 + (tx_last ? tx_last : 8)) : 0;
    memcpy(frame, m->fifo, m->fifo_len);
    m->fifo_len = 0;
    m->regs[REG_ERROR] = 0;
    m->regs[REG_COM_IRQ] |= IRQ_TX;
    memset(merged, 0, sizeof merged);
    for (i = 0; field && nbits && i < m->card_count; i++) {
        uint8_t bits = card_answer(&m->cards[i], frame, nbits, answer);
        if (!bits)
            continue;
        if (responders == 0) {
            memcpy(merged, answer, sizeof merged);
            answer_bits = bits;
        } else if (!collision) {
            for (b = 0; b < bits && b < answer_bits; b++)
                if (get_bit(answer, b) != get_bit(merged, b)) {
                    collision = 1;
                    coll_bit = (uint8_t)b;
                    break;
                }
        }
        responders++;
    }
    if (!responders) {
        m->regs[REG_COM_IRQ] |= IRQ_TIMER; /* TAuto: the timer ran out with nothing received */
        return;
    }
    m->answers++;
    if (collision) {
        uint8_t pos = (uint8_t)(rx_align + coll_bit + 1); /* counted in the FIFO's bit stream */
        for (b = coll_bit; b < answer_bits; b++)
            if (!(m->regs[REG_COLL] & COLL_VALUES_AFTER_COLL))
                put_bit(merged, b, 0);
        m->regs[REG_ERROR] |= ERR_COLL;
        m->regs[REG_COLL] = (uint8_t)((m->regs[REG_COLL] & COLL_VALUES_AFTER_COLL) | (pos & 0x1F));
        m->regs[REG_COM_IRQ] |= IRQ_ERR;
    } else {
        m->regs[REG_COLL] = (uint8_t)((m->regs[REG_COLL] & COLL_VALUES_AFTER_COLL) | COLL_POS_NOT_VALID);
    }
    /* Store the answer from bit rx_align of the first FIFO byte on. */
    {
        uint16_t total = (uint16_t)(rx_align + answer_bits);
        uint8_t bytes = (uint8_t)((total + 7) / 8);
        memset(m->fifo, 0, bytes);
        for (b = 0; b < answer_bits; b++)
            put_bit(m->fifo, (uint16_t)(rx_align + b), get_bit(merged, b));
        m->fifo_len = bytes;
        m->regs[REG_CONTROL] = (uint8_t)((m->regs[REG_CONTROL] & 0xF8) | (total % 8));
    }
    m->regs[REG_COM_IRQ] |= IRQ_RX;
}

/* ---- registers -------------------------------------------------------------------------- */

static uint8_t read_register(fake_mfrc522_t *m, uint8_t reg)
{
    if (reg == REG_FIFO_DATA) {
        uint8_t v;
        if (m->fifo_len == 0)
            return 0;
        v = m->fifo[0];
        memmove(m->fifo, m->fifo + 1, --m->fifo_len);
        return v;
    }
    if (reg == REG_FIFO_LEVEL)
        return m->fifo_len;
    return m->regs[reg & 0x3F];
}

static void write_register(fake_mfrc522_t *m, uint8_t reg, uint8_t v)
{
    switch (reg) {
    case REG_FIFO_DATA:
        if (m->fifo_len < sizeof m->fifo)
            m->fifo[m->fifo_len++] = v;
        else
            m->regs[REG_ERROR] |= ERR_BUFFER_OVFL;
        return;
    case REG_FIFO_LEVEL:
        if (v & FIFO_FLUSH)
            m->fifo_len = 0;
        return;
    case REG_COM_IRQ:
    case REG_DIV_IRQ: /* Set1 (bit 7): 1 sets the marked bits, 0 clears them */
        if (v & 0x80)
            m->regs[reg] |= (uint8_t)(v & 0x7F);
        else
            m->regs[reg] &= (uint8_t)~(v & 0x7F);
        return;
    case REG_COMMAND:
        if ((v & 0x0F) == CMD_SOFT_RESET) {
            reset_registers(m);
            for (uint8_t i = 0; i < m->card_count; i++) /* the field goes off: cards power down */
                m->cards[i].state = FM_IDLE, m->cards[i].level = 0, m->cards[i].halted = 0;
            return;
        }
        m->regs[REG_COMMAND] = v;
        return;
    case REG_BIT_FRAMING:
        m->regs[reg] = v;
        if ((v & BIT_FRAMING_START_SEND) && (m->regs[REG_COMMAND] & 0x0F) == CMD_TRANSCEIVE)
            transceive(m);
        return;
    case REG_TX_CONTROL:
        if ((v & TX_CONTROL_ANTENNA) != TX_CONTROL_ANTENNA)
            for (uint8_t i = 0; i < m->card_count; i++)
                m->cards[i].state = FM_IDLE, m->cards[i].level = 0, m->cards[i].halted = 0;
        m->regs[reg] = v;
        return;
    case REG_VERSION: /* read-only */
    case REG_ERROR:
    case REG_STATUS1:
        return;
    default:
        m->regs[reg & 0x3F] = v;
    }
}

/* ---- SPI (datasheet 8.1.2): address byte, then data; reads answer one byte later ------- */

void fm_chip_select(fake_mfrc522_t *m, int level)
{
    m->selected = level == 0;
    m->have_address = 0;
}

uint8_t fm_transfer(fake_mfrc522_t *m, uint8_t mosi)
{
    uint8_t miso = 0x00;
    if (!m->selected || m->muted)
        return 0x00;
    if (!m->have_address) {
        m->have_address = 1;
        m->reading = (mosi & 0x80) != 0;
        m->address = (uint8_t)((mosi >> 1) & 0x3F);
        if (mosi & 0x01)
            firmware_error(m, "SPI address byte with bit 0 set");
        return miso;
    }
    if (m->reading) {
        miso = read_register(m, m->address);
        m->address = (uint8_t)((mosi >> 1) & 0x3F); /* the next address (0 ends the read) */
    } else {
        write_register(m, m->address, mosi);
    }
    return miso;
}

int fm_place(fake_mfrc522_t *m, const uint8_t *uid, uint8_t len)
{
    fm_card_t *c;
    if ((len != 4 && len != 7 && len != 10) || m->card_count >= FM_MAX_CARDS)
        return -1;
    if (len == 4 && uid[0] == PICC_CT)
        return -1; /* a single-size UID cannot start with the cascade tag */
    c = &m->cards[m->card_count++];
    memset(c, 0, sizeof *c);
    memcpy(c->uid, uid, len);
    c->uid_len = len;
    return 0;
}

int fm_remove(fake_mfrc522_t *m, const uint8_t *uid, uint8_t len)
{
    uint8_t i, removed = 0;
    for (i = 0; i < m->card_count;) {
        fm_card_t *c = &m->cards[i];
        if (len == 0 || (c->uid_len == len && memcmp(c->uid, uid, len) == 0)) {
            memmove(c, c + 1, (size_t)(m->card_count - i - 1) * sizeof *c);
            m->card_count--;
            removed++;
        } else {
            i++;
        }
    }
    return removed ? 0 : -1;
}
