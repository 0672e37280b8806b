/* CRC-16 used by the reader board.
 *
 * Two CRCs, one arithmetic: both are the reflected CCITT polynomial (0x8408) that avr-libc's
 * _crc_ccitt_update() computes, with no final XOR.
 *   - crc_ccitt(): our serial frames. Initial value 0xFFFF (the catalogue name is CRC-16/MCRF4XX;
 *     Klipper's crc16_ccitt() is the same function). Check value for "123456789": 0x6F91.
 *   - crc_a(): ISO/IEC 14443-3 CRC_A on the radio frames. Initial value 0x6363; sent low byte
 *     first. Check value for "123456789": 0xBF05. (HLTA 50 00 -> 57 CD, the standard's example.)
 *
 * On the AVR the update step is avr-libc's own (inline assembly); on the host it is the C
 * equivalent printed in avr-libc's documentation of <util/crc16.h>, so the host unit tests check
 * the same arithmetic the board runs.
 */
#ifndef CRC_H
#define CRC_H

#include <stdint.h>

#ifdef __AVR__
#include <util/crc16.h>
#define crc_ccitt_update(crc, data) _crc_ccitt_update((crc), (data))
#else
uint16_t crc_ccitt_update(uint16_t crc, uint8_t data);
#endif

#define CRC_CCITT_INIT 0xFFFFu
#define CRC_A_INIT 0x6363u

uint16_t crc_run(uint16_t crc, const uint8_t *buf, uint8_t len);
uint16_t crc_ccitt(const uint8_t *buf, uint8_t len);
uint16_t crc_a(const uint8_t *buf, uint8_t len);

#endif
