#ifndef UART_H
#define UART_H
#include <stdint.h>
void uart_init(void);
void uart_write(const uint8_t *buf, uint8_t n); /* queues; waits only while the queue is full */
int16_t uart_read(void);                        /* next received byte, or -1 */
#endif
