#include <string.h>

#include "debounce.h"

static uint8_t same_uid(const presence_t *p, const uint8_t *uid, uint8_t len)
{
    return p->uid_len == len && memcmp(p->uid, uid, len) == 0;
}

static void forget(presence_t *p, uint8_t *old_uid, uint8_t *old_len)
{
    memcpy(old_uid, p->uid, p->uid_len);
    *old_len = p->uid_len;
    p->present = 0;
    p->misses = 0;
    p->uid_len = 0;
}

uint8_t presence_update(presence_t *p, const uint8_t *uid, uint8_t uid_len,
                        uint8_t *old_uid, uint8_t *old_len)
{
    uint8_t events = PRESENCE_NONE;
    if (uid_len > UID_MAX)
        uid_len = 0; /* never happens with a correct reader; treat as nothing read */
    if (uid_len == 0) {
        if (p->present && ++p->misses >= DEBOUNCE_MISSES) {
            forget(p, old_uid, old_len);
            events |= PRESENCE_REMOVED;
        }
        return events;
    }
    if (p->present && same_uid(p, uid, uid_len)) {
        p->misses = 0;
        return events;
    }
    if (p->present) {
        forget(p, old_uid, old_len);
        events |= PRESENCE_REMOVED;
    }
    p->present = 1;
    p->misses = 0;
    p->uid_len = uid_len;
    memcpy(p->uid, uid, uid_len);
    return (uint8_t)(events | PRESENCE_ARRIVED);
}
