/* The reader board: an ATmega328P (Arduino Uno or Nano) with up to six MFRC522 modules on one
 * SPI bus. Wiring (hardware.md has the diagram):
 *
 *   D13 SCK, D12 MISO, D11 MOSI   -> every module's SCK, MISO, MOSI
 *   D2 .. D7 (PD2 .. PD7)         -> SDA/NSS (chip-select) of the modules of seats 1 .. 6
 *   D9 (PB1)                      -> every module's RST (NRSTPD), high = running
 *   D10 (PB2)                     -> unused, kept an output so the SPI stays master
 *   D0/D1                         -> USB serial to the Pi, 115200 8N1
 */
#ifndef BOARD_H
#define BOARD_H

#define FW_MAJOR 1
#define FW_MINOR 0

#ifndef READER_COUNT
#define READER_COUNT 6
#endif
#if READER_COUNT < 1 || READER_COUNT > 6
#error "READER_COUNT must be 1..6 (chip-selects are PD2..PD7)"
#endif

#ifndef BAUD
#define BAUD 115200UL
#endif
#define POLL_INTERVAL_MS 100    /* every reader is polled this often */
#define HEARTBEAT_INTERVAL_MS 1000
#define FAULT_RETRY_MS 1000     /* a faulty module is looked at again this often */

#endif
