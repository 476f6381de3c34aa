/* test-client SOCKET: libtouchd-client against a real touchd that replays a
 * recording once two clients subscribe (scripts/check-c.sh starts it and a
 * reference client reading the raw lines).
 *
 * Checks (stderr, "ok"/"FAIL"): the hello's parsed fields; nonblocking
 * reads returning 0 when nothing is there; answers carrying their request's
 * id; errors carrying the protocol's code; strings with escapes; a surface's
 * own gestures and touches. Writes every other touch, gesture and device event as one
 * canonical line (stdout), which check-c.sh compares with the same lines
 * made from the reference's JSON. Exit 1 when a check failed. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "touchd-client.h"

static int failures;

static void check(int ok, const char *what) {
    fprintf(stderr, "%s  C client: %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

/* The next event, waiting up to 10 s in poll (nonblocking client). */
static int next(touchd_client *c, touchd_event *e) {
    for (;;) {
        int r = touchd_client_read_event(c, e);
        if (r != 0) return r;
        struct pollfd p = {.fd = touchd_client_fd(c), .events = POLLIN};
        if (poll(&p, 1, 10000) == 0) return -ETIMEDOUT;
    }
}

/* The answer to request `id`, keeping events that come before it. */
static int answer(touchd_client *c, int64_t id, touchd_event *e) {
    for (;;) {
        int r = next(c, e);
        if (r < 0) return r;
        if ((e->type == TOUCHD_ACK || e->type == TOUCHD_ERROR) && e->id == id) return 1;
    }
}

static const char *str(const char *s) { return s ? s : "-"; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: test-client SOCKET\n"); return 2; }
    touchd_client *c = touchd_client_new();
    check(c && touchd_client_connect(c, argv[1]) == 0, "connects");
    check(touchd_client_set_nonblocking(c, true) == 0, "nonblocking");
    touchd_event e;

    check(next(c, &e) == 1 && e.type == TOUCHD_HELLO, "the first event is the hello");
    check(e.protocol == 1 && e.server && strncmp(e.server, "touchd ", 7) == 0, "hello: protocol 1, server touchd");
    check(e.device_count == 1 && e.screen_count == 1, "hello: 1 device, 1 screen");
    check(e.json && e.json[0] == '{' && e.json[e.json_length] == '\0' && strstr(e.json, "\"devices\""),
          "hello: the line itself");
    check(touchd_client_read_event(c, &e) == 0, "nothing to read: 0 at once");

    /* Answers: ids, codes, escapes. */
    /* The left of the screen: two of the recording's four fingers. */
    int64_t first = touchd_client_register(c, "main", 0, 0, 900, 1080, "[{\"name\":\"drag\",\"kind\":\"pan\"}]");
    int64_t again = touchd_client_register(c, "main", 0, 0, 1, 1, NULL);
    int64_t odd = touchd_client_unregister(c, "no \"such\" \\ surface\n");
    int64_t too_slow = touchd_client_coalesce(c, 250);
    int64_t unknown = touchd_client_request(c, "teleport", NULL);
    check(first > 0 && again == first + 1 && odd == again + 1 && too_slow == odd + 1 && unknown == too_slow + 1,
          "requests get increasing ids");
    check(answer(c, first, &e) == 1 && e.type == TOUCHD_ACK, "register: ack with its id");
    check(answer(c, again, &e) == 1 && e.type == TOUCHD_ERROR && e.code && strcmp(e.code, "surface-exists") == 0 &&
          e.message && *e.message, "register again: error surface-exists with a message");
    check(answer(c, odd, &e) == 1 && e.type == TOUCHD_ERROR && strcmp(str(e.code), "unknown-surface") == 0 &&
          strstr(str(e.message), "no \"such\" \\ surface\n") != NULL,
          "unregister of an unknown id: unknown-surface, the id's quotes, backslash and newline unescaped");
    check(answer(c, too_slow, &e) == 1 && strcmp(str(e.code), "bad-field") == 0, "coalesce 250: bad-field");
    check(answer(c, unknown, &e) == 1 && strcmp(str(e.code), "unknown-op") == 0, "unknown op: unknown-op");
    check(touchd_client_subscribe(c, "", NULL) == -EINVAL, "subscribe to no stream: -EINVAL, nothing sent");

    /* The stream: starts the replay (the reference is the other subscriber). */
    int64_t subscribed = touchd_client_subscribe(c, "gesture,touch,device", NULL);
    check(answer(c, subscribed, &e) == 1 && e.type == TOUCHD_ACK, "subscribe: ack");
    int own = 0, owned_touches = 0, r;
    while ((r = next(c, &e)) == 1 && e.type != TOUCHD_GOODBYE) {
        /* What belongs to the surface is this client's only; the rest is
         * what every subscriber gets, the reference too. */
        if (e.surface && strcmp(e.surface, "main") == 0) {
            own += e.type == TOUCHD_GESTURE && strcmp(str(e.recognizer), "drag") == 0 && e.touches >= 1 &&
                   !isnan(e.translation.y);
            owned_touches += e.type == TOUCHD_TOUCH;
            continue;
        }
        switch (e.type) {
        case TOUCHD_GESTURE:
            printf("gesture %s %s %s %s %lld %lld %.6f %.2f %.2f %.2f %.2f %.1f %.1f %s\n", str(e.surface),
                   str(e.recognizer), str(e.kind), str(e.state), (long long)e.touches, (long long)e.device,
                   e.time, e.location.x, e.location.y, e.translation.x, e.translation.y, e.velocity.x,
                   e.velocity.y, str(e.direction));
            break;
        case TOUCHD_TOUCH:
            printf("touch %lld %lld %s %s %s %lld %.6f %.2f %.2f %.2f %.2f\n", (long long)e.device,
                   (long long)e.touch_id, str(e.phase), str(e.touch_type), str(e.tool), (long long)e.screen,
                   e.time, e.location.x, e.location.y, e.location_mm.x, e.location_mm.y);
            break;
        case TOUCHD_DEVICE:
            printf("device %s %lld %s\n", str(e.change), (long long)e.device, str(e.device_name));
            break;
        default:
            break;
        }
    }
    check(r == 1 && e.type == TOUCHD_GOODBYE && strcmp(str(e.reason), "shutdown") == 0, "goodbye: shutdown");
    check(own > 3, "the surface's own recognizer: its gestures");
    check(owned_touches > 3, "the surface's raw touches, marked with the surface");
    check(next(c, &e) == -EPIPE, "after goodbye: -EPIPE");
    touchd_client_free(c);
    return failures ? 1 : 0;
}
