/* drop-target: a drop target for drag sessions across clients (semantics §12).
 * Registers a surface taking text, proposes OPERATION (copy, move,
 * forbidden or cancel) whenever a session's touch enters it, and prints one
 * line per drag event: "entered SESSION TYPES COUNT", "moved SESSION",
 * "exited SESSION", "perform SESSION OPERATION DATA|DATA...", "ended
 * SESSION OUTCOME REASON". Stops at goodbye.
 *
 *   drop-target SOCKET X Y WIDTH HEIGHT [OPERATION]
 *
 * Build: cc drop-target.c $(pkg-config --cflags --libs touchd-client)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <touchd-client.h>

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
    touchd_client_register(c, "map", atof(argv[2]), atof(argv[3]), atof(argv[4]), atof(argv[5]), NULL);
    touchd_client_drag_surface(c, "map", false, false, "text/plain,text/uri-list");
    touchd_client_subscribe(c, "gesture", NULL);
    touchd_event e;
    int status = 0;
    while (touchd_client_read_event(c, &e) > 0) {
        if (e.type == TOUCHD_GOODBYE) break;
        if (e.type == TOUCHD_ERROR) {
            fprintf(stderr, "drop-target: error %s: %s\n", e.code, e.message);
            status = 1;
        }
        if (e.type != TOUCHD_DRAG) continue;
        if (strcmp(e.event, "entered") == 0) {
            printf("entered %lld", (long long)e.session);
            for (size_t i = 0; i < e.type_count; i++) printf("%s%s", i ? "," : " ", e.types[i]);
            printf(" %lld\n", (long long)e.item_count);
            touchd_client_drop_proposal(c, e.session, operation);
        } else if (strcmp(e.event, "perform") == 0) {
            printf("perform %lld %s", (long long)e.session, e.operation);
            /* The first text/plain of each item. */
            int64_t item = -1;
            for (size_t i = 0; i < e.data_count; i++) {
                if (e.data[i].item == item || strcmp(e.data[i].type, "text/plain") != 0 || !e.data[i].data) continue;
                printf("%s%s", item < 0 ? " " : "|", e.data[i].data);
                item = e.data[i].item;
            }
            printf("\n");
        } else if (strcmp(e.event, "ended") == 0) {
            printf("ended %lld %s %s\n", (long long)e.session, e.outcome, e.reason);
        } else {
            printf("%s %lld\n", e.event, (long long)e.session);
        }
        fflush(stdout);
    }
    touchd_client_free(c);
    return status;
}
