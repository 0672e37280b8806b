/* USART0 at 115200 8N1 with interrupt-driven ring buffers, so the firmware never busy-waits on
 * the line while it could be polling readers. */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "board.h"
#include "uart.h"

#define TX_SIZE 128 /* a power of two */
#define RX_SIZE 64

static volatile uint8_t tx_buf[TX_SIZE], rx_buf[RX_SIZE];
static volatile uint8_t tx_head, tx_tail, rx_head, rx_tail;

void uart_init(void)
{
    /* U2X: 16 MHz / (8 * (16 + 1)) = 117647 baud, 2.1 % fast; what Arduino's core uses. */
    UCSR0A = _BV(U2X0);
    UBRR0H = 0;
    UBRR0L = (uint8_t)((F_CPU / 8 + BAUD / 2) / BAUD - 1);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & (TX_SIZE - 1));
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
    if (next != rx_tail) { /* full: the byte is lost, and the host's CRC will notice */
        rx_buf[rx_head] = byte;
        rx_head = next;
    }
}

void uart_write(const uint8_t *buf, uint8_t n)
{
    while (n--) {
        uint8_t next = (uint8_t)((tx_head + 1) & (TX_SIZE - 1));
        while (next == tx_tail)
            ; /* queue full: the UDRE interrupt drains it */
        tx_buf[tx_head] = *buf++;
        tx_head = next;
        UCSR0B |= _BV(UDRIE0);
    }
}

int16_t uart_read(void)
{
    uint8_t byte;
    if (rx_head == rx_tail)
        return -1;
    byte = rx_buf[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
    return byte;
}
