/* A simulated MFRC522 module with the cards lying on its antenna, seen from its SPI pins.
 *
 * Enough of the chip for the board's firmware, modelled on the datasheet: the register file
 * with its reset values, the 64-byte FIFO, the Set1 semantics of ComIrqReg, the Transceive
 * command started by BitFramingReg.StartSend, bit-oriented frames (TxLastBits, RxAlign,
 * RxLastBits), the timer's TAuto timeout, ErrorReg.CollErr with CollReg.CollPos, and the
 * antenna drivers (no field, no card answers). Behind it, ISO/IEC 14443-3 type A cards with
 * 4-, 7- or 10-byte UIDs and their state machine (IDLE, READY per cascade level, ACTIVE, HALT).
 *
 * Not modelled, because the firmware does not use them: the chip's CRC coprocessor and
 * TxCRCEn/RxCRCEn (the firmware computes CRC_A itself and leaves them off; enabling them is
 * reported as a firmware error), MIFARE authentication, the IRQ pin, analogue settings.
 */
#ifndef FAKE_MFRC522_H
#define FAKE_MFRC522_H

#include <stdint.h>

#define FM_MAX_CARDS 4

typedef struct {
    uint8_t uid[10];
    uint8_t uid_len;
    uint8_t state;  /* FM_IDLE, FM_READY, FM_ACTIVE, FM_HALT */
    uint8_t level;  /* cascade level being selected, 0..2 */
    uint8_t halted; /* came to READY from HALT: falls back to HALT, not IDLE */
} fm_card_t;

typedef struct {
    uint8_t regs[64];
    uint8_t fifo[64];
    uint8_t fifo_len;
    fm_card_t cards[FM_MAX_CARDS];
    uint8_t card_count;
    uint8_t muted;      /* the module does not answer at all: MISO reads 0x00 */
    /* SPI transaction state */
    uint8_t selected;
    uint8_t have_address;
    uint8_t reading;
    uint8_t address;
    /* counters, for the harness's "stats" command and for firmware errors */
    uint32_t transceives;
    uint32_t answers;
    uint32_t firmware_errors;
    const char *last_firmware_error;
} fake_mfrc522_t;

void fm_init(fake_mfrc522_t *m);
void fm_chip_select(fake_mfrc522_t *m, int level); /* 0: selected (active low) */
uint8_t fm_transfer(fake_mfrc522_t *m, uint8_t mosi); /* returns MISO for this byte */
int fm_place(fake_mfrc522_t *m, const uint8_t *uid, uint8_t len); /* 0 ok, -1 refused */
int fm_remove(fake_mfrc522_t *m, const uint8_t *uid, uint8_t len); /* len 0: every card */

#endif
