#include "iso14443.h"

uint8_t iso_bcc(const uint8_t *b)
{
    return (uint8_t)(b[0] ^ b[1] ^ b[2] ^ b[3]);
}

uint8_t iso_nvb(uint8_t known_bits)
{
    return (uint8_t)(((2 + known_bits / 8) << 4) | (known_bits % 8));
}

uint8_t iso_merge(uint8_t *cl, uint8_t known_bits, const uint8_t *rx, uint8_t rx_len, uint8_t rx_last_bits)
{
    uint8_t first = (uint8_t)(known_bits / 8);
    uint8_t align = (uint8_t)(known_bits % 8);
    uint8_t keep = (uint8_t)((1u << align) - 1u);
    uint8_t i;
    if (rx_len == 0 || first + rx_len > 5 || rx_last_bits > 7)
        return 0xFF;
    cl[first] = (uint8_t)((cl[first] & keep) | (rx[0] & (uint8_t)~keep));
    for (i = 1; i < rx_len; i++)
        cl[first + i] = rx[i];
    return (uint8_t)((first + rx_len - 1) * 8 + (rx_last_bits ? rx_last_bits : 8));
}

int8_t iso_uid_add_level(uint8_t *uid, uint8_t *uid_len, const uint8_t *cl, uint8_t sak)
{
    uint8_t i;
    if (iso_bcc(cl) != cl[4] || *uid_len > 6)
        return -1;
    if (sak & SAK_CASCADE) {
        if (cl[0] != PICC_CT || *uid_len == 6)
            return -1;
        for (i = 1; i < 4; i++)
            uid[(*uid_len)++] = cl[i];
        return 1;
    }
    for (i = 0; i < 4; i++)
        uid[(*uid_len)++] = cl[i];
    return 0;
}
