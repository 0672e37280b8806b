/* MFRC522 driver written from the NXP datasheet (MFRC522 Rev. 3.9): register access over SPI,
 * the Transceive command, and the ISO/IEC 14443-3 type A sequence to read a card's UID:
 * WUPA, anticollision and SELECT through up to three cascade levels, then HLTA. */
#ifndef MFRC522_H
#define MFRC522_H

#include <stdint.h>

/* Registers (datasheet section 9.2) */
#define REG_COMMAND 0x01
#define REG_COM_IEN 0x02
#define REG_DIV_IEN 0x03
#define REG_COM_IRQ 0x04
#define REG_DIV_IRQ 0x05
#define REG_ERROR 0x06
#define REG_STATUS1 0x07
#define REG_STATUS2 0x08
#define REG_FIFO_DATA 0x09
#define REG_FIFO_LEVEL 0x0A
#define REG_WATER_LEVEL 0x0B
#define REG_CONTROL 0x0C
#define REG_BIT_FRAMING 0x0D
#define REG_COLL 0x0E
#define REG_MODE 0x11
#define REG_TX_MODE 0x12
#define REG_RX_MODE 0x13
#define REG_TX_CONTROL 0x14
#define REG_TX_ASK 0x15
#define REG_T_MODE 0x2A
#define REG_T_PRESCALER 0x2B
#define REG_T_RELOAD_H 0x2C
#define REG_T_RELOAD_L 0x2D
#define REG_VERSION 0x37

/* Commands (datasheet section 10.3) */
#define CMD_IDLE 0x00
#define CMD_TRANSCEIVE 0x0C
#define CMD_SOFT_RESET 0x0F
#define COMMAND_POWER_DOWN 0x10

/* ComIrqReg bits */
#define IRQ_SET1 0x80
#define IRQ_TX 0x40
#define IRQ_RX 0x20
#define IRQ_IDLE 0x10
#define IRQ_ERR 0x02
#define IRQ_TIMER 0x01
/* ErrorReg bits */
#define ERR_BUFFER_OVFL 0x10
#define ERR_COLL 0x08
#define ERR_CRC 0x04
#define ERR_PARITY 0x02
#define ERR_PROTOCOL 0x01
/* other bits */
#define FIFO_FLUSH 0x80
#define BIT_FRAMING_START_SEND 0x80
#define COLL_VALUES_AFTER_COLL 0x80
#define COLL_POS_NOT_VALID 0x20
#define TX_CONTROL_ANTENNA 0x03

typedef enum {
    MF_OK = 0,
    MF_TIMEOUT,   /* no card answered */
    MF_COLLISION, /* two cards answered differently */
    MF_ERROR,     /* parity, protocol, CRC or a malformed answer */
    MF_NO_CHIP    /* the module itself did not respond */
} mf_status_t;

/* Soft-reset and configure one module; returns its VersionReg (0x91/0x92 for genuine chips,
 * 0x00 or 0xFF when nothing answers on the bus). */
uint8_t mfrc_init(uint8_t reader);
uint8_t mfrc_version(uint8_t reader);
uint8_t mfrc_version_ok(uint8_t version);

/* Read the UID of the card on the reader, if any: WUPA, cascade levels, HLTA.
 * uid: 10 bytes; *uid_len becomes 4, 7 or 10 on MF_OK. */
mf_status_t mfrc_read_uid(uint8_t reader, uint8_t *uid, uint8_t *uid_len);

#endif
