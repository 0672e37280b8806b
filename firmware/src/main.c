/* The reader board's firmware: poll every MFRC522, report cards arriving and leaving.
 *
 * Small and dumb on purpose (Klipper's split): the board reads UIDs and debounces presence;
 * the Pi decides what a UID means. Every message is a frame of docs/serial-protocol.md.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "board.h"
#include "bus.h"
#include "debounce.h"
#include "mfrc522.h"
#include "proto.h"
#include "spi.h"
#include "uart.h"

static uint8_t tx_seq;
static presence_t presence[READER_COUNT];
static uint8_t fault_mask;
static uint16_t fault_checked[READER_COUNT];
static uint32_t uptime_s;
static proto_rx_t rx;

/* A watchdog reset leaves the watchdog running: switch it off before main() (avr-libc FAQ). */
void wdt_off_at_boot(void) __attribute__((naked, used, section(".init3")));
void wdt_off_at_boot(void)
{
    MCUSR = 0;
    wdt_disable();
}

static void send(const uint8_t *payload, uint8_t len)
{
    uint8_t frame[PROTO_MAX_FRAME];
    uint8_t n = proto_frame(frame, tx_seq++, payload, len);
    uart_write(frame, n);
}

static uint8_t present_mask(void)
{
    uint8_t r, mask = 0;
    for (r = 0; r < READER_COUNT; r++)
        if (presence[r].present)
            mask |= (uint8_t)(1u << r);
    return mask;
}

static void send_hello(void)
{
    uint8_t m[6] = {MSG_HELLO, PROTO_VERSION, FW_MAJOR, FW_MINOR, READER_COUNT, fault_mask};
    send(m, sizeof m);
}

static void send_tag(uint8_t id, uint8_t reader, const uint8_t *uid, uint8_t len)
{
    uint8_t m[3 + UID_MAX], i;
    m[0] = id;
    m[1] = (uint8_t)(reader + 1); /* readers are numbered 1..6 on the wire, like seats */
    m[2] = len;
    for (i = 0; i < len; i++)
        m[3 + i] = uid[i];
    send(m, (uint8_t)(3 + len));
}

static void send_heartbeat(void)
{
    uint8_t m[7] = {MSG_HEARTBEAT, (uint8_t)(uptime_s >> 24), (uint8_t)(uptime_s >> 16),
                    (uint8_t)(uptime_s >> 8), (uint8_t)uptime_s, present_mask(), fault_mask};
    send(m, sizeof m);
}

static void send_fault(uint8_t reader, uint8_t code, uint8_t detail)
{
    uint8_t m[4] = {MSG_READER_FAULT, (uint8_t)(reader + 1), code, detail};
    send(m, sizeof m);
}

static void send_ok(uint8_t reader, uint8_t version)
{
    uint8_t m[3] = {MSG_READER_OK, (uint8_t)(reader + 1), version};
    send(m, sizeof m);
}

/* Does the module answer its VersionReg? Reports the change when it stops or starts again.
 * A card lying on a faulty reader is neither reported removed nor present: nobody can tell. */
static uint8_t module_alive(uint8_t r)
{
    uint8_t bit = (uint8_t)(1u << r);
    uint8_t version = mfrc_version(r);
    fault_checked[r] = bus_millis();
    if (!mfrc_version_ok(version)) {
        if (!(fault_mask & bit)) {
            fault_mask |= bit;
            send_fault(r, FAULT_NO_ANSWER, version);
        }
        return 0;
    }
    if (fault_mask & bit) {
        fault_mask &= (uint8_t)~bit;
        send_ok(r, mfrc_init(r)); /* it was reset or replugged: configure it again */
    }
    return 1;
}

static void poll_reader(uint8_t r, uint8_t report)
{
    uint8_t uid[UID_MAX], len = 0, old[UID_MAX], old_len = 0, events;
    mf_status_t status;
    if ((fault_mask & (1u << r)) && (uint16_t)(bus_millis() - fault_checked[r]) < FAULT_RETRY_MS)
        return;
    if (!module_alive(r))
        return;
    status = mfrc_read_uid(r, uid, &len);
    if (status == MF_NO_CHIP) {
        module_alive(r);
        return;
    }
    events = presence_update(&presence[r], uid, status == MF_OK ? len : 0, old, &old_len);
    if (!report)
        return;
    if (events & PRESENCE_REMOVED)
        send_tag(MSG_TAG_REMOVED, r, old, old_len);
    if (events & PRESENCE_ARRIVED)
        send_tag(MSG_TAG_PRESENT, r, presence[r].uid, presence[r].uid_len);
}

/* IDENTIFY: the host (re)connected. Tell it everything it needs to know the board's state. */
static void identify(void)
{
    uint8_t r;
    send_hello();
    for (r = 0; r < READER_COUNT; r++)
        if (presence[r].present)
            send_tag(MSG_TAG_PRESENT, r, presence[r].uid, presence[r].uid_len);
    send_heartbeat();
}

static void handle_host(void)
{
    uint8_t payload[PROTO_MAX_PAYLOAD], len;
    int16_t c;
    while ((c = uart_read()) >= 0) {
        len = proto_rx_byte(&rx, (uint8_t)c, payload);
        if (len == 1 && payload[0] == CMD_IDENTIFY)
            identify();
        /* anything else is not for this firmware version: ignored */
    }
}

static void idle_until_interrupt(void)
{
    /* Idle sleep keeps the timer and the UART running; the 1 kHz tick wakes us. */
    set_sleep_mode(SLEEP_MODE_IDLE);
    cli();
    sleep_enable();
    sei();
    sleep_cpu();
    sleep_disable();
}

int main(void)
{
    uint8_t r;
    uint16_t now, last_poll, last_beat;
    uart_init();
    spi_init();
    proto_rx_init(&rx);
    sei();
    modules_reset();
    for (r = 0; r < READER_COUNT; r++)
        if (!mfrc_version_ok(mfrc_init(r)))
            fault_mask |= (uint8_t)(1u << r);
    /* Read every reader once before saying hello, so that what the board announces (and any
     * heartbeat's present-mask) is the truth: a host reconnecting to a board that has just
     * powered up must not be told "empty" about a card lying on a reader. */
    for (r = 0; r < READER_COUNT; r++)
        if (!(fault_mask & (1u << r)))
            poll_reader(r, 0);
    identify();
    for (r = 0; r < READER_COUNT; r++)
        if (fault_mask & (1u << r)) {
            fault_checked[r] = bus_millis();
            send_fault(r, FAULT_NO_ANSWER, mfrc_version(r));
        }
    wdt_enable(WDTO_2S);
    last_poll = last_beat = bus_millis();
    for (;;) {
        wdt_reset();
        handle_host();
        now = bus_millis();
        if ((uint16_t)(now - last_poll) >= POLL_INTERVAL_MS) {
            last_poll = now;
            for (r = 0; r < READER_COUNT; r++)
                poll_reader(r, 1);
        }
        if ((uint16_t)(now - last_beat) >= HEARTBEAT_INTERVAL_MS) {
            last_beat += HEARTBEAT_INTERVAL_MS;
            uptime_s++;
            send_heartbeat();
        }
        idle_until_interrupt();
    }
}
