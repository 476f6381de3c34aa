/* touchd-events: prints what touchd publishes, one line per event, from a
 * poll(2) loop as an application's own event loop would run it.
 *
 *   touchd-events [SOCKET [STREAMS]]     (default: /run/touchd/touchd.sock gesture,device)
 *
 * Build: cc touchd-events.c $(pkg-config --cflags --libs touchd-client)
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <touchd-client.h>

static void print_event(const touchd_event *e) {
    switch (e->type) {
    case TOUCHD_HELLO:
        printf("hello %s protocol %lld: %lld devices, %lld screens\n", e->server, (long long)e->protocol,
               (long long)e->device_count, (long long)e->screen_count);
        break;
    case TOUCHD_GESTURE:
        printf("gesture %s %s %s on %s: %lld touches at %.1f,%.1f\n", e->recognizer, e->kind, e->state,
               e->surface, (long long)e->touches, e->location.x, e->location.y);
        break;
    case TOUCHD_TOUCH:
        printf("touch %lld %s at %.1f,%.1f (%.1f,%.1f mm)\n", (long long)e->touch_id, e->phase, e->location.x,
               e->location.y, e->location_mm.x, e->location_mm.y);
        break;
    case TOUCHD_DEVICE:
        printf("device %s: %s\n", e->change, e->device_name);
        break;
    case TOUCHD_ERROR:
        printf("error (request %lld): %s: %s\n", (long long)e->id, e->code, e->message);
        break;
    case TOUCHD_GOODBYE:
        printf("goodbye: %s\n", e->reason);
        break;
    default: /* system, overflow, ack and newer types: the line itself */
        printf("%.*s\n", (int)e->json_length, e->json);
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : TOUCHD_CLIENT_DEFAULT_SOCKET;
    const char *streams = argc > 2 ? argv[2] : "gesture,device";
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
    for (;;) {
        struct pollfd p = {.fd = touchd_client_fd(client),
                           .events = POLLIN | (touchd_client_wants_write(client) ? POLLOUT : 0)};
        if (poll(&p, 1, -1) < 0 && errno != EINTR) break;
        if (p.revents & POLLOUT) touchd_client_flush(client);
        touchd_event e;
        while ((r = touchd_client_read_event(client, &e)) > 0) {
            if (e.type != TOUCHD_ACK) print_event(&e);
            if (e.type == TOUCHD_ERROR && e.id > 0) r = -EINVAL;
        }
        if (r < 0) break;
    }
    touchd_client_free(client);
    return r == -EPIPE ? 0 : 1; /* touchd closed the connection: done */
}
