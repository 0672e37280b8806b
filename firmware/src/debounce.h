/* Card presence per reader: turns raw poll results into "tag present" / "tag removed" events.
 *
 * A card is present from the first poll that reads its UID (anticollision and SELECT already
 * checked BCC and CRC_A, so one read is trustworthy). It is removed after DEBOUNCE_MISSES polls
 * in a row without it: a card at the edge of the field can miss a single poll, and a held card
 * must stay one tap. A different UID replaces the old one at once (removed, then present).
 * Pure logic: built and tested on the host.
 */
#ifndef DEBOUNCE_H
#define DEBOUNCE_H

#include <stdint.h>

#define UID_MAX 10
#ifndef DEBOUNCE_MISSES
#define DEBOUNCE_MISSES 3
#endif

typedef struct {
    uint8_t present;
    uint8_t misses;
    uint8_t uid_len;
    uint8_t uid[UID_MAX];
} presence_t;

#define PRESENCE_NONE 0x00
#define PRESENCE_REMOVED 0x01 /* the previous UID (still in old_uid) has gone */
#define PRESENCE_ARRIVED 0x02 /* the new UID is now present */

/* Update with one poll result (uid_len 0: no card read). Returns a mask of PRESENCE_* events;
 * when PRESENCE_REMOVED is set the UID that left is copied to old_uid / *old_len. */
uint8_t presence_update(presence_t *p, const uint8_t *uid, uint8_t uid_len,
                        uint8_t *old_uid, uint8_t *old_len);

#endif
