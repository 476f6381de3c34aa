/* SPDX-License-Identifier: MIT */
/* drop-target: a drop target for drag sessions across clients (semantics §12).
 * Registers a surface taking text, proposes OPERATION (copy, move,
 * forbidden or cancel) whenever a session's touch enters it, and prints one
 * line per drag event: "entered SESSION TYPES COUNT", "moved SESSION",
 * "exited SESSION", "perform SESSION OPERATION DATA|DATA..." (each item's
 * text/plain), "ended SESSION OUTCOME REASON". Stops at goodbye.
 *
 *   drop-target SOCKET X Y WIDTH HEIGHT [OPERATION]
 *
 * Build: cc drop-target.c $(pkg-config --cflags --libs touchd-client)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <touchd-client.h>

static const char *or_dash(const char *s) { return s ? s : "-"; }

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: drop-target SOCKET X Y WIDTH HEIGHT [copy|move|forbidden|cancel]\n");
        return 2;
    }
    const char *operation = argc > 6 ? argv[6] : "copy";
    touchd_client *c = touchd_client_new();
    if (!c || touchd_client_connect(c, argv[1]) < 0) {
        fprintf(stderr, "drop-target: cannot connect to %s\n", argv[1]);
        return 1;
    }
    touchd_surface *map = touchd_surface_new("map", atof(argv[2]), atof(argv[3]), atof(argv[4]), atof(argv[5]));
    const char *types[] = {"text/plain", "text/uri-list", NULL};
    if (!map || touchd_client_register_surface(c, map) < 0 || touchd_client_drag_surface(c, "map", false, false, types) < 0 ||
        touchd_client_subscribe(c, TOUCHD_STREAM_GESTURE, NULL) < 0) {
        fprintf(stderr, "drop-target: cannot send the set-up\n");
        return 1;
    }
    touchd_surface_free(map);
    const touchd_event *e;
    int status = 0;
    while (touchd_client_read_event(c, &e) > 0) {
        touchd_event_type type = touchd_event_get_type(e);
        if (type == TOUCHD_GOODBYE) break;
        if (type == TOUCHD_ERROR) {
            fprintf(stderr, "drop-target: error %s: %s\n", or_dash(touchd_event_get_error_code(e)),
                    or_dash(touchd_event_get_error_message(e)));
            status = 1;
        }
        if (type != TOUCHD_DRAG) continue;
        const char *event = or_dash(touchd_event_get_string(e, "event"));
        int64_t session = -1;
        touchd_event_get_integer(e, "session", &session);
        if (strcmp(event, "entered") == 0) {
            int64_t count = -1;
            touchd_event_get_integer(e, "itemCount", &count);
            printf("entered %lld", (long long)session);
            for (int64_t i = 0; i < touchd_event_get_array_length(e, "types"); i++) {
                char path[32];
                snprintf(path, sizeof path, "types.%lld", (long long)i);
                printf("%s%s", i ? "," : " ", or_dash(touchd_event_get_string(e, path)));
            }
            printf(" %lld\n", (long long)count);
            touchd_client_drop_proposal(c, session, operation);
        } else if (strcmp(event, "perform") == 0) {
            printf("perform %lld %s", (long long)session, or_dash(touchd_event_get_string(e, "operation")));
            for (int64_t i = 0; i < touchd_event_get_array_length(e, "items"); i++) {
                char path[64];
                snprintf(path, sizeof path, "items.%lld.representations", (long long)i);
                const char *text = NULL;
                for (int64_t j = 0; !text && j < touchd_event_get_array_length(e, path); j++) {
                    char type_path[96], data_path[96];
                    snprintf(type_path, sizeof type_path, "%s.%lld.type", path, (long long)j);
                    snprintf(data_path, sizeof data_path, "%s.%lld.data", path, (long long)j);
                    const char *t = touchd_event_get_string(e, type_path);
                    if (t && strcmp(t, "text/plain") == 0) text = touchd_event_get_string(e, data_path);
                }
                printf("%s%s", i ? "|" : " ", or_dash(text));
            }
            printf("\n");
        } else if (strcmp(event, "ended") == 0) {
            printf("ended %lld %s %s\n", (long long)session, or_dash(touchd_event_get_string(e, "outcome")),
                   or_dash(touchd_event_get_string(e, "reason")));
        } else {
            printf("%s %lld\n", event, (long long)session);
        }
        fflush(stdout);
    }
    touchd_client_free(c);
    return status;
}
