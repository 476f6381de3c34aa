/* SPDX-License-Identifier: MIT */
/* touchd-events: prints what touchd publishes, one line per event, from a
 * poll(2) loop as an application's own event loop would run it. When touchd
 * goes away (a restart), it reconnects and subscribes again; it ends at a
 * goodbye of "shutdown".
 *
 *   touchd-events [SOCKET [STREAMS]]     (default: /run/touchd/touchd.sock gesture,device)
 *
 * Build: cc touchd-events.c $(pkg-config --cflags --libs touchd-client)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <touchd-client.h>

static const char *or_dash(const char *s) { return s ? s : "-"; }

static void print_event(const touchd_event *e) {
    touchd_point at = {NAN, NAN}, mm = {NAN, NAN};
    int64_t n = -1;
    switch (touchd_event_get_type(e)) {
    case TOUCHD_HELLO:
        touchd_event_get_integer(e, "protocol", &n);
        printf("hello %s protocol %lld: %lld devices, %lld screens\n", or_dash(touchd_event_get_string(e, "server")),
               (long long)n, (long long)touchd_event_get_array_length(e, "devices"),
               (long long)touchd_event_get_array_length(e, "screens"));
        break;
    case TOUCHD_GESTURE:
        touchd_event_get_point(e, "location", &at);
        touchd_event_get_integer(e, "touches", &n);
        printf("gesture %s %s %s on %s: %lld touches at %.1f,%.1f\n", or_dash(touchd_event_get_recognizer(e)),
               or_dash(touchd_event_get_kind(e)), or_dash(touchd_event_get_state(e)),
               or_dash(touchd_event_get_surface(e)), (long long)n, at.x, at.y);
        break;
    case TOUCHD_TOUCH:
        touchd_event_get_point(e, "location", &at);
        touchd_event_get_point(e, "locationMM", &mm);
        printf("touch %lld %s at %.1f,%.1f (%.1f,%.1f mm)\n", (long long)touchd_event_get_touch_id(e),
               or_dash(touchd_event_get_phase(e)), at.x, at.y, mm.x, mm.y);
        break;
    case TOUCHD_DEVICE:
        printf("device %s: %s\n", or_dash(touchd_event_get_string(e, "change")),
               or_dash(touchd_event_get_string(e, "device.name")));
        break;
    case TOUCHD_ERROR:
        printf("error (request %lld): %s: %s\n", (long long)touchd_event_get_request_id(e),
               or_dash(touchd_event_get_error_code(e)), or_dash(touchd_event_get_error_message(e)));
        break;
    case TOUCHD_GOODBYE:
        printf("goodbye: %s\n", or_dash(touchd_event_get_string(e, "reason")));
        break;
    default: { /* system, overflow and newer types: the line itself */
        size_t length;
        const char *json = touchd_event_get_json(e, &length);
        printf("%.*s\n", (int)length, json);
    }
    }
    fflush(stdout);
}

static unsigned parse_streams(const char *list) {
    static const struct { const char *name; unsigned flag; } names[] = {
        {"gesture", TOUCHD_STREAM_GESTURE}, {"touch", TOUCHD_STREAM_TOUCH}, {"system", TOUCHD_STREAM_SYSTEM},
        {"device", TOUCHD_STREAM_DEVICE}, {"debug", TOUCHD_STREAM_DEBUG},
    };
    unsigned flags = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strstr(list, names[i].name)) flags |= names[i].flag;
    return flags;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : TOUCHD_CLIENT_DEFAULT_SOCKET;
    unsigned streams = parse_streams(argc > 2 ? argv[2] : "gesture,device");
    touchd_client *client = touchd_client_new();
    int r = client ? touchd_client_connect(client, path) : -ENOMEM;
    if (r < 0) {
        fprintf(stderr, "touchd-events: cannot connect to %s: %s\n", path, strerror(-r));
        return 1;
    }
    touchd_client_set_nonblocking(client, true);
    if (touchd_client_subscribe(client, streams, NULL) < 0) {
        fprintf(stderr, "touchd-events: cannot subscribe\n");
        return 1;
    }
    bool done = false;
    while (!done) {
        struct pollfd p = {.fd = touchd_client_fd(client),
                           .events = POLLIN | (touchd_client_wants_write(client) ? POLLOUT : 0)};
        if (poll(&p, 1, -1) < 0 && errno != EINTR) break;
        if (p.revents & POLLOUT) touchd_client_flush(client);
        const touchd_event *e;
        while ((r = touchd_client_read_event(client, &e)) > 0) {
            if (touchd_event_get_type(e) != TOUCHD_ACK) print_event(e);
            const char *reason = touchd_event_get_string(e, "reason");
            if (touchd_event_get_type(e) == TOUCHD_GOODBYE && reason &&
                strcmp(reason, "shutdown") == 0) done = true;
        }
        if (r == -EPIPE && !done) {
            /* touchd restarting: the same subscriptions once it is back. */
            for (unsigned attempt = 1; (r = touchd_client_reconnect(client)) < 0 && attempt < 50; attempt++)
            {
                unsigned ms = touchd_client_reconnect_delay_ms(attempt);
                nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L}, NULL);
            }
            if (r < 0) break;
        } else if (r < 0) {
            break;
        }
    }
    touchd_client_free(client);
    return done ? 0 : 1;
}
