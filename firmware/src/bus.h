/* What the MFRC522 driver needs from the board: one SPI bus with a chip-select per reader, and
 * a millisecond clock. spi.c provides it on the ATmega328P; the host tests provide a fake. */
#ifndef BUS_H
#define BUS_H

#include <stdint.h>

void bus_select(uint8_t reader);   /* 0-based reader index: its chip-select goes low */
void bus_release(void);            /* every chip-select high */
uint8_t bus_transfer(uint8_t out); /* one SPI byte out, the byte clocked in at the same time */
uint16_t bus_millis(void);         /* wraps every 65 s; only differences are used */

#endif
