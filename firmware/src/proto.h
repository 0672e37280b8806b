/* The reader board's serial protocol (docs/serial-protocol.md), framed like Klipper's:
 *
 *   <length> <sequence> <payload ...> <crc16 high> <crc16 low> <sync 0x7E>
 *
 * length counts the whole frame (5..64 bytes); sequence is 0x10 | (n & 0x0F); the CRC is
 * crc_ccitt() over length, sequence and payload. The payload's first byte is a message id.
 * This file is pure logic (no registers): it builds on the host for the unit tests.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

#define PROTO_VERSION 1
#define PROTO_SYNC 0x7E
#define PROTO_SEQ_FLAG 0x10
#define PROTO_MIN_FRAME 5
#define PROTO_MAX_FRAME 64
#define PROTO_OVERHEAD 5 /* length, sequence, crc x2, sync */
#define PROTO_MAX_PAYLOAD (PROTO_MAX_FRAME - PROTO_OVERHEAD)

/* Board -> host */
#define MSG_HELLO 0x01        /* proto_version fw_major fw_minor reader_count fault_mask */
#define MSG_TAG_PRESENT 0x02  /* reader uid_len uid[uid_len] */
#define MSG_TAG_REMOVED 0x03  /* reader uid_len uid[uid_len] */
#define MSG_HEARTBEAT 0x04    /* uptime_s(4, big-endian) present_mask fault_mask */
#define MSG_READER_FAULT 0x05 /* reader code detail */
#define MSG_READER_OK 0x06    /* reader version */
/* Host -> board */
#define CMD_IDENTIFY 0x81     /* (no arguments): answer hello, every present tag, a heartbeat */

#define FAULT_NO_ANSWER 0x01  /* VersionReg read 0x00 or 0xFF: the module is missing or unpowered */

/* Build a frame around payload into out (PROTO_MAX_FRAME bytes). Returns its length, or 0 when
 * the payload does not fit. */
uint8_t proto_frame(uint8_t *out, uint8_t seq, const uint8_t *payload, uint8_t len);

/* Receiver: feed bytes one at a time; frames are cut out of the stream and anything that is
 * not a valid frame is dropped and counted. Resynchronises on the next good frame even when it
 * follows garbage directly (every start position is tried, not only after a sync byte). */
typedef struct {
    uint8_t buf[PROTO_MAX_FRAME];
    uint8_t len;
    uint16_t good;
    uint16_t bad;  /* dropped stretches of bytes (garbage, truncated or corrupted frames) */
    uint8_t dropping; /* inside a stretch already counted */
} proto_rx_t;

void proto_rx_init(proto_rx_t *rx);
/* Returns the payload length (>= 1) when a frame completed and copies its payload to payload
 * (PROTO_MAX_PAYLOAD bytes); 0 otherwise. */
uint8_t proto_rx_byte(proto_rx_t *rx, uint8_t byte, uint8_t *payload);

#endif
