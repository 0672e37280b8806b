#include "crc.h"

#ifndef __AVR__
/* The C equivalent avr-libc documents for _crc_ccitt_update(). */
uint16_t crc_ccitt_update(uint16_t crc, uint8_t data)
{
    data ^= (uint8_t)(crc & 0xFF);
    data ^= (uint8_t)(data << 4);
    return (uint16_t)((((uint16_t)data << 8) | (crc >> 8)) ^ (uint8_t)(data >> 4) ^ ((uint16_t)data << 3));
}
#endif

uint16_t crc_run(uint16_t crc, const uint8_t *buf, uint8_t len)
{
    while (len--)
        crc = crc_ccitt_update(crc, *buf++);
    return crc;
}

uint16_t crc_ccitt(const uint8_t *buf, uint8_t len)
{
    return crc_run(CRC_CCITT_INIT, buf, len);
}

uint16_t crc_a(const uint8_t *buf, uint8_t len)
{
    return crc_run(CRC_A_INIT, buf, len);
}
