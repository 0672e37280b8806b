/* rfidsim: the reader board's firmware running under simavr, with simulated MFRC522 modules on
 * its SPI bus and its UART bridged to a pseudo-terminal, so the companion's Python driver talks
 * to it through pyserial exactly as to the real board.
 *
 *   rfidsim FIRMWARE.elf [--link PATH] [--readers N]
 *
 * The harness prints, on its standard output, "@pty /dev/pts/N" once the pty exists, then reads
 * commands on its standard input, one per line, and answers each with "@ok ..." or "@error ...":
 *
 *   place R UID      put a card (UID in hex: 4, 7 or 10 bytes) on reader R (1..6)
 *   remove R [UID]   take that card (or every card) off reader R
 *   mute R           reader R's module stops answering on the bus (MISO reads 0x00)
 *   unmute R         ... and answers again
 *   unplug           the USB cable is pulled: the pty closes (the host sees the device vanish)
 *   plug             plugged back in: the board powers up again (AVR reset, modules reset,
 *                    cards still lying on them) on a new pty; --link points at it
 *   stats R          "@ok transceives answers firmware_errors [last firmware error]"
 *   quit
 *
 * --link PATH keeps a symlink to the current pty, as udev keeps /dev/serial/by-id/... pointing
 * at whatever ttyUSB the board got. simavr's own messages go to standard error.
 *
 * The simulation runs in real time while the firmware sleeps (simavr sleeps the host for the
 * simulated time), faster while it works. Pins: chip-selects PD2..PD7 (Arduino D2..D7).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>

#include "fake_mfrc522.h"

#define MAX_READERS 6
#define F_CPU_HZ 16000000u

static avr_t *avr;
static fake_mfrc522_t chips[MAX_READERS];
static int reader_count = MAX_READERS;
static avr_irq_t *spi_in, *uart_in;
static uint32_t bus_conflicts;

static int ctrl_fd = -1;               /* the original stdout: our answers */
static int master_fd = -1, held_slave_fd = -1;
static char slave_name[64];
static const char *link_path;

static uint8_t to_host[8192];
static size_t to_host_len;
static uint8_t from_host[4096];
static size_t from_host_len;

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (write(ctrl_fd, line, (size_t)n) < 0)
        exit(1);
}

/* ---- wiring the simulated modules to the AVR's pins --------------------------------------- */

static void chip_select_changed(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    fm_chip_select(&chips[(intptr_t)param], (int)value);
}

static void spi_byte_out(struct avr_irq_t *irq, uint32_t mosi, void *param)
{
    uint8_t miso = 0x00;
    int i, selected = 0;
    (void)irq;
    (void)param;
    for (i = 0; i < reader_count; i++)
        if (chips[i].selected) {
            miso = fm_transfer(&chips[i], (uint8_t)mosi);
            selected++;
        }
    if (selected > 1)
        bus_conflicts++; /* two chip-selects low at once: a firmware bug */
    avr_raise_irq(spi_in, miso);
}

static void uart_byte_out(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (to_host_len < sizeof to_host)
        to_host[to_host_len++] = (uint8_t)value;
}

/* ---- the pty (the "USB cable") ------------------------------------------------------------ */

static int plug_in(void)
{
    struct termios raw;
    if (openpty(&master_fd, &held_slave_fd, slave_name, NULL, NULL) < 0)
        return -1;
    /* Raw mode: no echo, no newline translation. The harness keeps a slave descriptor open so
     * that the master does not see a hang-up whenever the host closes the port. */
    tcgetattr(held_slave_fd, &raw);
    cfmakeraw(&raw);
    tcsetattr(held_slave_fd, TCSANOW, &raw);
    fcntl(master_fd, F_SETFL, fcntl(master_fd, F_GETFL) | O_NONBLOCK);
    if (link_path) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.new", link_path);
        unlink(tmp);
        if (symlink(slave_name, tmp) < 0 || rename(tmp, link_path) < 0)
            return -1;
    }
    to_host_len = from_host_len = 0;
    return 0;
}

static void pull_plug(void)
{
    if (link_path)
        unlink(link_path);
    if (master_fd >= 0)
        close(master_fd);
    if (held_slave_fd >= 0)
        close(held_slave_fd);
    master_fd = held_slave_fd = -1;
    to_host_len = from_host_len = 0;
}

static void pump_pty(void)
{
    ssize_t n;
    if (master_fd < 0) {
        to_host_len = 0; /* nobody is listening: a real USB-serial chip drops it too */
        return;
    }
    if (to_host_len) {
        n = write(master_fd, to_host, to_host_len);
        if (n > 0) {
            memmove(to_host, to_host + n, to_host_len - (size_t)n);
            to_host_len -= (size_t)n;
        } else if (n < 0 && errno != EAGAIN) {
            to_host_len = 0;
        }
    }
    if (from_host_len < sizeof from_host) {
        n = read(master_fd, from_host + from_host_len, sizeof from_host - from_host_len);
        if (n > 0)
            from_host_len += (size_t)n;
    }
    /* Feed the AVR's UART a few bytes per simulated millisecond: its receive FIFO holds 64 and
     * the line itself carries about 11 bytes per millisecond at 115200 baud. */
    {
        size_t i, count = from_host_len < 11 ? from_host_len : 11;
        for (i = 0; i < count; i++)
            avr_raise_irq(uart_in, from_host[i]);
        memmove(from_host, from_host + count, from_host_len - count);
        from_host_len -= count;
    }
}

/* ---- commands ----------------------------------------------------------------------------- */

static int parse_uid(const char *hex, uint8_t *uid, uint8_t *len)
{
    size_t n = strlen(hex), i;
    if (n % 2 || n / 2 > 10)
        return -1;
    for (i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        uid[i] = (uint8_t)v;
    }
    *len = (uint8_t)(n / 2);
    return 0;
}

static fake_mfrc522_t *reader_arg(const char *arg)
{
    int r = arg ? atoi(arg) : 0;
    return r >= 1 && r <= reader_count ? &chips[r - 1] : NULL;
}

static void power_up_board(void)
{
    int i;
    avr_reset(avr);
    for (i = 0; i < reader_count; i++) {
        fake_mfrc522_t saved = chips[i];
        fm_init(&chips[i]);
        memcpy(chips[i].cards, saved.cards, sizeof saved.cards);
        chips[i].card_count = saved.card_count;
        chips[i].muted = saved.muted;
        for (int c = 0; c < chips[i].card_count; c++)
            chips[i].cards[c].state = 0, chips[i].cards[c].level = 0, chips[i].cards[c].halted = 0;
    }
}

static int command(char *line)
{
    char *verb = strtok(line, " \t\r\n"), *a = strtok(NULL, " \t\r\n"), *b = strtok(NULL, " \t\r\n");
    fake_mfrc522_t *chip = reader_arg(a);
    uint8_t uid[10], len = 0;
    if (!verb)
        return 0;
    if (!strcmp(verb, "quit"))
        return 1;
    if (!strcmp(verb, "unplug")) {
        pull_plug();
        reply("@ok");
    } else if (!strcmp(verb, "plug")) {
        if (master_fd >= 0)
            reply("@error already plugged in");
        else if (power_up_board(), plug_in() < 0)
            reply("@error cannot open a pty: %s", strerror(errno));
        else
            reply("@ok %s", slave_name);
    } else if (!chip) {
        reply("@error %s: reader must be 1..%d", verb, reader_count);
    } else if (!strcmp(verb, "place")) {
        if (!b || parse_uid(b, uid, &len) < 0 || fm_place(chip, uid, len) < 0)
            reply("@error place: UID must be 4, 7 or 10 bytes in hex, at most %d cards", FM_MAX_CARDS);
        else
            reply("@ok");
    } else if (!strcmp(verb, "remove")) {
        if (b && parse_uid(b, uid, &len) < 0)
            reply("@error remove: bad UID");
        else if (fm_remove(chip, uid, len) < 0)
            reply("@error remove: no such card on reader %s", a);
        else
            reply("@ok");
    } else if (!strcmp(verb, "mute") || !strcmp(verb, "unmute")) {
        chip->muted = verb[0] == 'm';
        reply("@ok");
    } else if (!strcmp(verb, "stats")) {
        reply("@ok %u %u %u %u %s", (unsigned)chip->transceives, (unsigned)chip->answers,
              (unsigned)chip->firmware_errors, (unsigned)bus_conflicts,
              chip->last_firmware_error ? chip->last_firmware_error : "-");
    } else {
        reply("@error unknown command %s", verb);
    }
    return 0;
}

static int pump_commands(void)
{
    static char line[512];
    static size_t used;
    struct pollfd p = {.fd = 0, .events = POLLIN};
    if (poll(&p, 1, 0) <= 0)
        return 0;
    if (p.revents & (POLLHUP | POLLERR) && !(p.revents & POLLIN))
        return 1; /* the test went away */
    {
        ssize_t n = read(0, line + used, sizeof line - 1 - used);
        char *nl;
        if (n <= 0)
            return 1;
        used += (size_t)n;
        line[used] = 0;
        while ((nl = memchr(line, '\n', used)) != NULL) {
            size_t take = (size_t)(nl - line) + 1;
            char one[512];
            memcpy(one, line, take);
            one[take] = 0;
            memmove(line, line + take, used - take);
            used -= take;
            line[used] = 0;
            if (command(one))
                return 1;
        }
        if (used == sizeof line - 1)
            used = 0; /* an absurd line: drop it */
    }
    return 0;
}

int main(int argc, char **argv)
{
    elf_firmware_t firmware;
    const char *elf = NULL;
    int i;
    uint32_t uart_flags = 0;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--link") && i + 1 < argc)
            link_path = argv[++i];
        else if (!strcmp(argv[i], "--readers") && i + 1 < argc)
            reader_count = atoi(argv[++i]);
        else
            elf = argv[i];
    }
    if (!elf || reader_count < 1 || reader_count > MAX_READERS) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--link PATH] [--readers 1..6]\n", argv[0]);
        return 2;
    }
    /* simavr prints to stdout; keep stdout for our answers and send the rest to stderr. */
    ctrl_fd = dup(1);
    dup2(2, 1);

    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(elf, &firmware) != 0) {
        fprintf(stderr, "rfidsim: cannot read %s\n", elf);
        return 1;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr)
        return 1;
    avr_init(avr);
    firmware.frequency = F_CPU_HZ;
    avr_load_firmware(avr, &firmware);
    avr->frequency = F_CPU_HZ;
    avr->log = LOG_ERROR;

    for (i = 0; i < MAX_READERS; i++)
        fm_init(&chips[i]);
    spi_in = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), spi_byte_out, NULL);
    for (i = 0; i < reader_count; i++)
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), IOPORT_IRQ_PIN2 + i),
                                chip_select_changed, (void *)(intptr_t)i);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_byte_out, NULL);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &uart_flags); /* no stdio echo, no poll sleep */

    if (plug_in() < 0) {
        fprintf(stderr, "rfidsim: cannot open a pty: %s\n", strerror(errno));
        return 1;
    }
    reply("@pty %s", slave_name);

    for (;;) {
        /* Run one simulated millisecond, then look at the pty and the commands. */
        avr_cycle_count_t until = avr->cycle + F_CPU_HZ / 1000;
        while (avr->cycle < until) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "rfidsim: the firmware stopped (state %d)\n", state);
                pull_plug();
                return 1;
            }
        }
        pump_pty();
        if (pump_commands())
            break;
    }
    pull_plug();
    return 0;
}
