/* bus.h on the ATmega328P: hardware SPI master, chip-selects on PD2..PD7, a 1 kHz tick. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "board.h"
#include "bus.h"
#include "spi.h"

static volatile uint16_t ticks;

ISR(TIMER0_COMPA_vect)
{
    ticks++;
}

void spi_init(void)
{
    uint8_t cs_mask = (uint8_t)(((1u << READER_COUNT) - 1u) << PD2);
    PORTD |= cs_mask; /* chip-selects high (idle) before they become outputs */
    DDRD |= cs_mask;
    PORTB |= _BV(PB1); /* RST high: modules running */
    DDRB |= _BV(PB1) | _BV(PB2) | _BV(PB3) | _BV(PB5); /* RST, SS, MOSI, SCK out; MISO in */
    SPCR = _BV(SPE) | _BV(MSTR); /* mode 0, MSB first, f/4 = 4 MHz (the MFRC522 takes 10) */
    /* Timer0: CTC, prescaler 64, 16 MHz / 64 / 250 = 1 kHz */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = (uint8_t)(F_CPU / 64 / 1000 - 1);
    TIMSK0 = _BV(OCIE0A);
}

void modules_reset(void)
{
    /* A hard reset of every module: NRSTPD low, then high; the oscillator needs ~38 us plus
     * the crystal's start-up once it is released. */
    uint16_t start;
    PORTB &= (uint8_t)~_BV(PB1);
    start = bus_millis();
    while ((uint16_t)(bus_millis() - start) < 2)
        ;
    PORTB |= _BV(PB1);
    start = bus_millis();
    while ((uint16_t)(bus_millis() - start) < 50)
        ;
}

void bus_select(uint8_t reader)
{
    PORTD &= (uint8_t)~_BV(PD2 + reader);
}

void bus_release(void)
{
    PORTD |= (uint8_t)(((1u << READER_COUNT) - 1u) << PD2);
}

uint8_t bus_transfer(uint8_t out)
{
    SPDR = out;
    while (!(SPSR & _BV(SPIF)))
        ;
    return SPDR;
}

uint16_t bus_millis(void)
{
    uint16_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = ticks; }
    return now;
}
