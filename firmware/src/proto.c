#include <string.h>

#include "crc.h"
#include "proto.h"

uint8_t proto_frame(uint8_t *out, uint8_t seq, const uint8_t *payload, uint8_t len)
{
    uint8_t total = (uint8_t)(len + PROTO_OVERHEAD);
    uint16_t crc;
    if (len == 0 || len > PROTO_MAX_PAYLOAD)
        return 0;
    out[0] = total;
    out[1] = (uint8_t)(PROTO_SEQ_FLAG | (seq & 0x0F));
    memcpy(out + 2, payload, len);
    crc = crc_ccitt(out, (uint8_t)(total - 3));
    out[total - 3] = (uint8_t)(crc >> 8);
    out[total - 2] = (uint8_t)(crc & 0xFF);
    out[total - 1] = PROTO_SYNC;
    return total;
}

void proto_rx_init(proto_rx_t *rx)
{
    memset(rx, 0, sizeof *rx);
}

enum { CHECK_BAD, CHECK_NEED, CHECK_OK };

/* Is there a frame at b[0..n)? */
static uint8_t check(const uint8_t *b, uint8_t n)
{
    uint8_t length = b[0];
    uint16_t crc;
    if (length < PROTO_MIN_FRAME || length > PROTO_MAX_FRAME)
        return CHECK_BAD;
    if (n < 2)
        return CHECK_NEED;
    if ((b[1] & 0xF0) != PROTO_SEQ_FLAG)
        return CHECK_BAD;
    if (n < length)
        return CHECK_NEED;
    if (b[length - 1] != PROTO_SYNC)
        return CHECK_BAD;
    crc = crc_ccitt(b, (uint8_t)(length - 3));
    if (b[length - 3] != (uint8_t)(crc >> 8) || b[length - 2] != (uint8_t)(crc & 0xFF))
        return CHECK_BAD;
    return CHECK_OK;
}

static void drop(proto_rx_t *rx, uint8_t count, uint8_t counted)
{
    if (count == 0)
        return;
    if (counted && !rx->dropping)
        rx->bad++;
    rx->dropping = 1;
    memmove(rx->buf, rx->buf + count, (size_t)(rx->len - count));
    rx->len = (uint8_t)(rx->len - count);
}

uint8_t proto_rx_byte(proto_rx_t *rx, uint8_t byte, uint8_t *payload)
{
    uint8_t start, first_need = 0xFF;
    rx->buf[rx->len++] = byte;
    for (start = 0; start < rx->len; start++) {
        uint8_t verdict = check(rx->buf + start, (uint8_t)(rx->len - start));
        if (verdict == CHECK_OK) {
            uint8_t length = rx->buf[start];
            uint8_t plen = (uint8_t)(length - PROTO_OVERHEAD);
            drop(rx, start, 1);
            memcpy(payload, rx->buf + 2, plen);
            drop(rx, length, 0);
            rx->dropping = 0;
            rx->good++;
            return plen;
        }
        if (verdict == CHECK_NEED && first_need == 0xFF)
            first_need = start;
    }
    /* No complete frame: keep from the first place one might still start. A candidate can
     * never need more than PROTO_MAX_FRAME bytes, so the buffer cannot overflow. */
    drop(rx, first_need == 0xFF ? rx->len : first_need, 1);
    return 0;
}
