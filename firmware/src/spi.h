#ifndef SPI_H
#define SPI_H
void spi_init(void);      /* SPI master, chip-selects, the millisecond tick */
void modules_reset(void); /* pulse the shared RST line of every MFRC522 */
#endif
