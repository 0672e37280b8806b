/* ISO/IEC 14443-3 type A pieces that are pure arithmetic: BCC, NVB, merging anticollision
 * answers into a cascade level, and assembling the UID from the cascade levels.
 * Built and tested on the host.
 *
 * A UID of 4, 7 or 10 bytes is selected in 1, 2 or 3 cascade levels. Each level answers with
 * five bytes "UID CLn": four bytes and their BCC (XOR). When the UID continues at the next level
 * the first byte is the cascade tag 0x88 and the SAK has bit 0x04 set:
 *
 *   4 bytes:  CL1 = u0 u1 u2 u3 BCC
 *   7 bytes:  CL1 = CT u0 u1 u2 BCC   CL2 = u3 u4 u5 u6 BCC
 *   10 bytes: CL1 = CT u0 u1 u2 BCC   CL2 = CT u3 u4 u5 BCC   CL3 = u6 u7 u8 u9 BCC
 */
#ifndef ISO14443_H
#define ISO14443_H

#include <stdint.h>

#define PICC_REQA 0x26      /* 7-bit short frame */
#define PICC_WUPA 0x52      /* 7-bit short frame: also wakes a card in HALT */
#define PICC_SEL_CL1 0x93
#define PICC_SEL_CL2 0x95
#define PICC_SEL_CL3 0x97
#define PICC_HLTA 0x50      /* 50 00 CRC_A */
#define PICC_CT 0x88        /* cascade tag */
#define PICC_NVB_SELECT 0x70
#define SAK_CASCADE 0x04

uint8_t iso_bcc(const uint8_t *bytes4);

/* NVB byte for an anticollision frame carrying known_bits (0..39) bits of UID CLn. */
uint8_t iso_nvb(uint8_t known_bits);

/* Merge a reader's answer into cl[5]: the answer's first byte lines up with cl[known_bits / 8]
 * (the reader stored it with RxAlign = known_bits % 8, so its low bits are not the card's).
 * rx_last_bits: valid bits of the last answer byte (0 = all 8). Returns the number of bits of
 * cl now known, or 0xFF when the answer does not fit in five bytes. */
uint8_t iso_merge(uint8_t *cl, uint8_t known_bits, const uint8_t *rx, uint8_t rx_len, uint8_t rx_last_bits);

/* Append one selected cascade level to the UID. Returns 1 when another level follows, 0 when
 * the UID is complete, -1 when the level is inconsistent (bad BCC, a cascade SAK without the
 * cascade tag, or more than three levels). */
int8_t iso_uid_add_level(uint8_t *uid, uint8_t *uid_len, const uint8_t *cl, uint8_t sak);

#endif
