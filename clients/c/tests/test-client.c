/* test-client --parser: the parser on hand-made server lines (a stand-in
 * server on a temporary socket): escapes, surrogate pairs, unknown types and
 * fields, blank lines and \r, lines split across reads, malformed lines,
 * huge numbers, deep nesting.
 *
 * test-client SOCKET: libtouchd-client against a real touchd that replays a
 * recording once two clients subscribe (scripts/check-c.sh starts it and a
 * reference client reading the raw lines).
 *
 * Checks (stderr, "ok"/"FAIL"): the hello's parsed fields; nonblocking
 * reads returning 0 when nothing is there; answers carrying their request's
 * id; errors carrying the protocol's code; strings with escapes; a surface's
 * own gestures and touches. Writes every other touch, gesture and device event as one
 * canonical line (stdout), which check-c.sh compares with the same lines
 * made from the reference's JSON. Exit 1 when a check failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

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

/* Writes `text` to the stand-in server's side and reads one event. */
static int feed(int server, touchd_client *c, const char *text, touchd_event *e) {
    size_t n = strlen(text);
    if (write(server, text, n) != (ssize_t)n) return -EIO;
    return touchd_client_read_event(c, e);
}

static int parser_tests(void) {
    char path[] = "/tmp/touchd-c-parser-XXXXXX";
    if (!mkdtemp(path)) return 2;
    char socket_path[64];
    snprintf(socket_path, sizeof socket_path, "%s/s", path);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strcpy(address.sun_path, socket_path);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 1) < 0) return 2;
    touchd_client *c = touchd_client_new();
    check(touchd_client_connect(c, socket_path) == 0, "parser: connects to a stand-in server");
    int server = accept(listener, NULL, NULL);
    touchd_client_set_nonblocking(c, true);
    touchd_event e;

    check(feed(server, c, "{\"type\":\"touch\",\"time\":1.5,\"device\":2,\"id\":7,\"phase\":\"moved\",\"location\":{\"x\":10.25,\"y\":-3e2},"
                          "\"locationMM\":{\"x\":1,\"y\":2},\"future\":{\"a\":[1,{\"b\":null}],\"name\":\"not mine\"},\"force\":0.5}\n", &e) == 1 &&
          e.type == TOUCHD_TOUCH && e.time == 1.5 && e.device == 2 && e.touch_id == 7 && e.id == -1 &&
          strcmp(e.phase, "moved") == 0 && e.location.x == 10.25 && e.location.y == -300 && e.location_mm.y == 2 &&
          e.force == 0.5 && e.name == NULL && isnan(e.velocity.x),
          "parser: a touch, nested unknown fields ignored (their names too), absent ones NAN and NULL");
    check(feed(server, c, "{\"type\":\"error\",\"id\":3,\"code\":\"bad-field\",\"message\":\"\\\"q\\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00 \\n\"}\n", &e) == 1 &&
          e.type == TOUCHD_ERROR && e.id == 3 && strcmp(e.message, "\"q\" \\ / \xc3\xa9 \xf0\x9f\x98\x80 \n") == 0,
          "parser: escapes, \\u00e9 and a surrogate pair as UTF-8");
    check(feed(server, c, "\n  \r\n{\"type\":\"wind\",\"speed\":3}\r\n", &e) == 1 && e.type == TOUCHD_UNKNOWN &&
          strcmp(e.type_name, "wind") == 0 && strcmp(e.json, "{\"type\":\"wind\",\"speed\":3}") == 0,
          "parser: blank lines skipped, \\r dropped, an unknown type with its line");
    check(feed(server, c, "{\"type\":\"goodb", &e) == 0, "parser: half a line: nothing yet");
    check(feed(server, c, "ye\",\"reason\":\"restart\"}\n", &e) == 1 && e.type == TOUCHD_GOODBYE &&
          strcmp(e.reason, "restart") == 0, "parser: the line completed by the next read");
    check(feed(server, c, "{\"type\":\"overflow\",\"lost\":1e300,\"time\":2}\n", &e) == 1 && e.lost == -1 && e.time == 2,
          "parser: an integer beyond int64_t stays -1");
    check(feed(server, c, "{\"type\":\"drag\",\"event\":\"entered\",\"time\":1.5,\"session\":3,\"surface\":\"map\","
                          "\"location\":{\"x\":10,\"y\":20},\"types\":[\"text/plain\",\"image/png\"],\"itemCount\":2}\n", &e) == 1 &&
          e.type == TOUCHD_DRAG && strcmp(e.event, "entered") == 0 && e.session == 3 && e.item_count == 2 &&
          e.type_count == 2 && strcmp(e.types[1], "image/png") == 0 && e.location.y == 20 && strcmp(e.surface, "map") == 0,
          "parser: a drag entered with its types and count");
    check(feed(server, c, "{\"type\":\"drag\",\"event\":\"perform\",\"time\":2,\"session\":3,\"surface\":\"map\",\"operation\":\"copy\","
                          "\"items\":[{\"representations\":[{\"type\":\"text/plain\",\"data\":\"Lyon\"},{\"type\":\"text/html\",\"data\":\"<b>L</b>\"}]},"
                          "{\"representations\":[{\"type\":\"text/plain\",\"data\":\"Paris\"}]}]}\n", &e) == 1 &&
          e.type == TOUCHD_DRAG && strcmp(e.operation, "copy") == 0 && e.data_count == 3 && e.data[0].item == 0 &&
          strcmp(e.data[1].data, "<b>L</b>") == 0 && e.data[2].item == 1 && strcmp(e.data[2].data, "Paris") == 0 && e.type_count == 0,
          "parser: a drop's items, each representation with its item");
    check(feed(server, c, "{\"type\":\"drag\",\"event\":\"ended\",\"time\":2,\"session\":3,\"outcome\":\"cancelled\",\"reason\":\"source-gone\"}\n", &e) == 1 &&
          e.type == TOUCHD_DRAG && strcmp(e.outcome, "cancelled") == 0 && strcmp(e.reason, "source-gone") == 0 && e.request == -1,
          "parser: a drag's end");
    const char *bad[] = {"[1,2]\n", "{\"type\":\"ack\",}\n", "{\"type\":\"ack\"} x\n", "{\"type\":\"a\\q\"}\n",
                         "{\"type\":tru}\n", "{\"id\":01x}\n", "{\"type\":\"\\ud800\"}\n", "{\"type\":\"ack\"\n"};
    int refused = 0;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) refused += feed(server, c, bad[i], &e) == -EBADMSG;
    check(refused == (int)(sizeof bad / sizeof *bad), "parser: malformed lines are -EBADMSG");
    char deep[400] = "{\"a\":";
    for (int i = 0; i < 70; i++) strcat(deep, "[");
    for (int i = 0; i < 70; i++) strcat(deep, "]");
    strcat(deep, "}\n");
    check(feed(server, c, deep, &e) == -EBADMSG, "parser: nesting deeper than 64 is -EBADMSG");
    check(feed(server, c, "{\"type\":\"ack\",\"id\":9}\n", &e) == 1 && e.type == TOUCHD_ACK && e.id == 9,
          "parser: reads on after refused lines");
    close(server);
    check(touchd_client_read_event(c, &e) == -EPIPE, "parser: the server's close is -EPIPE");
    touchd_client_free(c);
    close(listener);
    unlink(socket_path);
    rmdir(path);
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: test-client --parser | SOCKET\n"); return 2; }
    if (strcmp(argv[1], "--parser") == 0) return parser_tests();
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
