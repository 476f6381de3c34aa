/* SPDX-License-Identifier: MIT */
/* test-client --parser: the parser on hand-made server lines (a stand-in
 * server on a temporary socket): escapes, surrogate pairs, unknown types and
 * fields reachable by path, array elements, blank lines and \r, lines split
 * across reads, malformed lines, huge numbers, deep nesting; the requests'
 * exact lines (typed subscribe, surfaces built with touchd_surface_*), and
 * reconnect sending the client's set-up again to a new server.
 *
 * test-client --corpus FILE: see corpus() below.
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
static int next(touchd_client *c, const touchd_event **e) {
    for (;;) {
        int r = touchd_client_read_event(c, e);
        if (r != 0) return r;
        struct pollfd p = {.fd = touchd_client_fd(c), .events = POLLIN};
        if (poll(&p, 1, 10000) == 0) return -ETIMEDOUT;
    }
}

/* The answer to request `id`, keeping events that come before it. */
static int answer(touchd_client *c, int64_t id, const touchd_event **e) {
    for (;;) {
        int r = next(c, e);
        if (r < 0) return r;
        touchd_event_type t = touchd_event_get_type(*e);
        if ((t == TOUCHD_ACK || t == TOUCHD_ERROR) && touchd_event_get_request_id(*e) == id) return 1;
    }
}

static const char *str(const char *s) { return s ? s : "-"; }

/* Writes `text` to the stand-in server's side and reads one event. */
static int feed(int server, touchd_client *c, const char *text, const touchd_event **e) {
    size_t n = strlen(text);
    if (write(server, text, n) != (ssize_t)n) return -EIO;
    return touchd_client_read_event(c, e);
}

/* Reads what the client sent, up to `count` lines, from the stand-in server's side. */
static int read_lines(int server, char *text, size_t size, int count) {
    size_t n = 0;
    int lines = 0;
    while (lines < count && n + 1 < size) {
        struct pollfd p = {.fd = server, .events = POLLIN};
        if (poll(&p, 1, 5000) <= 0) break;
        ssize_t got = read(server, text + n, size - n - 1);
        if (got <= 0) break;
        for (ssize_t i = 0; i < got; i++) lines += text[n + (size_t)i] == '\n';
        n += (size_t)got;
    }
    text[n] = '\0';
    return lines;
}

static int listen_at(const char *socket_path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strcpy(address.sun_path, socket_path);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 1) < 0) return -1;
    return listener;
}

static int parser_tests(void) {
    char path[] = "/tmp/touchd-c-parser-XXXXXX";
    if (!mkdtemp(path)) return 2;
    char socket_path[64];
    snprintf(socket_path, sizeof socket_path, "%s/s", path);
    int listener = listen_at(socket_path);
    if (listener < 0) return 2;
    touchd_client *c = touchd_client_new();
    check(touchd_client_connect(c, socket_path) == 0, "parser: connects to a stand-in server");
    int server = accept(listener, NULL, NULL);
    touchd_client_set_nonblocking(c, true);
    const touchd_event *e = NULL;
    double d = 0;
    int64_t n = 0;
    bool b = false;
    touchd_point at = {0, 0};

    check(feed(server, c, "{\"type\":\"touch\",\"time\":1.5,\"device\":2,\"id\":7,\"phase\":\"moved\",\"location\":{\"x\":10.25,\"y\":-3e2},"
                          "\"locationMM\":{\"x\":1,\"y\":2},\"future\":{\"a\":[1,{\"b\":null}],\"name\":\"not mine\"},\"force\":0.5}\n", &e) == 1 &&
          touchd_event_get_type(e) == TOUCHD_TOUCH && touchd_event_get_time(e) == 1.5 && touchd_event_get_device(e) == 2 &&
          touchd_event_get_touch_id(e) == 7 && touchd_event_get_request_id(e) == -1 &&
          strcmp(str(touchd_event_get_phase(e)), "moved") == 0 && touchd_event_get_point(e, "location", &at) &&
          at.x == 10.25 && at.y == -300 && touchd_event_get_point(e, "locationMM", &at) && at.y == 2 &&
          touchd_event_get_number(e, "force", &d) && d == 0.5 && touchd_event_get_string(e, "name") == NULL &&
          !touchd_event_get_point(e, "velocity", &at) && isnan(touchd_event_get_time(NULL)),
          "parser: a touch; absent members false, NULL and NAN");
    check(strcmp(str(touchd_event_get_string(e, "future.name")), "not mine") == 0 &&
          touchd_event_get_array_length(e, "future.a") == 2 && touchd_event_get_integer(e, "future.a.0", &n) && n == 1 &&
          touchd_event_has(e, "future.a.1.b") && !touchd_event_get_bool(e, "future.a.1.b", &b) &&
          touchd_event_get_string(e, "future.a") == NULL && touchd_event_get_array_length(e, "future") == -1,
          "parser: members of newer fields by path, array elements by index, each of its own type");
    check(feed(server, c, "{\"type\":\"error\",\"id\":3,\"code\":\"bad-field\",\"message\":\"\\\"q\\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00 \\n\"}\n", &e) == 1 &&
          touchd_event_get_type(e) == TOUCHD_ERROR && touchd_event_get_request_id(e) == 3 && touchd_event_get_touch_id(e) == -1 &&
          strcmp(str(touchd_event_get_error_message(e)), "\"q\" \\ / \xc3\xa9 \xf0\x9f\x98\x80 \n") == 0,
          "parser: escapes, \\u00e9 and a surrogate pair as UTF-8");
    size_t length = 0;
    check(feed(server, c, "\n  \r\n{\"type\":\"wind\",\"speed\":3,\"gusty\":true}\r\n", &e) == 1 &&
          touchd_event_get_type(e) == TOUCHD_UNKNOWN && strcmp(str(touchd_event_get_type_name(e)), "wind") == 0 &&
          strcmp(touchd_event_get_json(e, &length), "{\"type\":\"wind\",\"speed\":3,\"gusty\":true}") == 0 && length == 38 &&
          touchd_event_get_bool(e, "gusty", &b) && b,
          "parser: blank lines skipped, \\r dropped, an unknown type with its line and members");
    check(feed(server, c, "{\"type\":\"goodb", &e) == 0, "parser: half a line: nothing yet");
    check(feed(server, c, "ye\",\"reason\":\"restart\"}\n", &e) == 1 && touchd_event_get_type(e) == TOUCHD_GOODBYE &&
          strcmp(str(touchd_event_get_string(e, "reason")), "restart") == 0, "parser: the line completed by the next read");
    check(feed(server, c, "{\"type\":\"overflow\",\"lost\":1e300,\"half\":2.5,\"time\":2}\n", &e) == 1 &&
          !touchd_event_get_integer(e, "lost", &n) && touchd_event_get_number(e, "lost", &d) && d == 1e300 &&
          !touchd_event_get_integer(e, "half", &n) && touchd_event_get_time(e) == 2,
          "parser: no integer beyond int64_t, nor a fraction, though both are numbers");
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
    check(feed(server, c, "{\"type\":\"ack\",\"id\":9}\n", &e) == 1 && touchd_event_get_type(e) == TOUCHD_ACK &&
          touchd_event_get_request_id(e) == 9, "parser: reads on after refused lines");

    /* Requests: their exact lines. */
    const char *kinds[] = {"tap", "pan", NULL};
    const char *no_kinds[] = {NULL};
    check(touchd_client_subscribe(c, 0, NULL) == -EINVAL && touchd_client_subscribe(c, 1u << 9, NULL) == -EINVAL &&
          touchd_client_subscribe(c, TOUCHD_STREAM_TOUCH, no_kinds) == -EINVAL, "requests: no stream, an unknown flag, an empty kinds list: -EINVAL");
    int64_t sub = touchd_client_subscribe(c, TOUCHD_STREAM_GESTURE | TOUCHD_STREAM_DEVICE, kinds);
    touchd_surface *s = touchd_surface_new("map \"1\"", 0, 0, 640, 480);
    check(s && touchd_surface_set_number(s, "z", 2) == 0 && touchd_surface_set_bool(s, "exclusiveTouch", true) == 0 &&
          touchd_surface_add_string(s, "deferEdges", "top") == 0 && touchd_surface_add_string(s, "deferEdges", "left") == 0 &&
          touchd_surface_add_recognizer(s, "double", "tap") == 0 && touchd_surface_set_recognizer_number(s, "double", "taps", 2) == 0 &&
          touchd_surface_add_recognizer(s, "single", "tap") == 0 &&
          touchd_surface_add_recognizer_string(s, "single", "requireToFail", "double") == 0 &&
          touchd_surface_set_number(s, "z", 3) == 0,
          "surfaces: members, arrays, recognizers and their parameters");
    check(touchd_surface_add_recognizer(s, "double", "pan") == -EEXIST && touchd_surface_set_recognizer_bool(s, "nope", "x", true) == -ENOENT &&
          touchd_surface_set_number(s, "rect", 1) == -EINVAL && touchd_surface_set_string(s, "a b", "x") == -EINVAL &&
          touchd_surface_set_number(s, "z", NAN) == -EINVAL && touchd_surface_new(NULL, 0, 0, 1, 1) == NULL,
          "surfaces: a second recognizer of a name, an unknown one, reserved or bad keys, NAN: refused");
    int64_t reg = touchd_client_register_surface(c, s);
    int64_t co = touchd_client_coalesce(c, 16);
    int64_t unsub = touchd_client_unsubscribe(c, TOUCHD_STREAM_DEVICE);
    touchd_surface *gone = touchd_surface_new("gone", 1, 2, 3, 4);
    int64_t reg2 = touchd_client_register_surface(c, gone);
    int64_t unreg = touchd_client_unregister_surface(c, "gone");
    char sent[4096];
    int lines = read_lines(server, sent, sizeof sent, 6);
    const char *expected =
        "{\"op\":\"subscribe\",\"id\":1,\"events\":[\"gesture\",\"device\"],\"filter\":{\"kinds\":[\"tap\",\"pan\"]}}\n"
        "{\"op\":\"register\",\"id\":2,\"surface\":{\"id\":\"map \\\"1\\\"\",\"rect\":{\"x\":0,\"y\":0,\"width\":640,\"height\":480},"
        "\"z\":3,\"exclusiveTouch\":true,\"deferEdges\":[\"top\",\"left\"],\"recognizers\":[{\"name\":\"double\",\"kind\":\"tap\",\"taps\":2},"
        "{\"name\":\"single\",\"kind\":\"tap\",\"requireToFail\":[\"double\"]}]}}\n"
        "{\"op\":\"coalesce\",\"id\":3,\"intervalMs\":16}\n"
        "{\"op\":\"unsubscribe\",\"id\":4,\"events\":[\"device\"]}\n"
        "{\"op\":\"register\",\"id\":5,\"surface\":{\"id\":\"gone\",\"rect\":{\"x\":1,\"y\":2,\"width\":3,\"height\":4}}}\n"
        "{\"op\":\"unregister\",\"id\":6,\"surface\":\"gone\"}\n";
    check(sub == 1 && reg == 2 && co == 3 && unsub == 4 && reg2 == 5 && unreg == 6 && lines == 6 && strcmp(sent, expected) == 0,
          "requests: typed subscribe, the built surface, coalesce, unsubscribe, unregister, as exact lines");
    if (strcmp(sent, expected) != 0) fprintf(stderr, "sent:\n%s", sent);

    close(server);
    check(touchd_client_read_event(c, &e) == -EPIPE, "parser: the server's close is -EPIPE");

    /* Reconnect: a new server at the same path gets the set-up again, the
     * unregistered surface excepted, in order, with new ids. */
    check(touchd_client_reconnect(c) == 0, "reconnect: connects to the same path");
    server = accept(listener, NULL, NULL);
    lines = read_lines(server, sent, sizeof sent, 4);
    const char *again =
        "{\"op\":\"subscribe\",\"id\":7,\"events\":[\"gesture\",\"device\"],\"filter\":{\"kinds\":[\"tap\",\"pan\"]}}\n"
        "{\"op\":\"unsubscribe\",\"id\":8,\"events\":[\"device\"]}\n"
        "{\"op\":\"coalesce\",\"id\":9,\"intervalMs\":16}\n"
        "{\"op\":\"register\",\"id\":10,\"surface\":{\"id\":\"map \\\"1\\\"\",\"rect\":{\"x\":0,\"y\":0,\"width\":640,\"height\":480},"
        "\"z\":3,\"exclusiveTouch\":true,\"deferEdges\":[\"top\",\"left\"],\"recognizers\":[{\"name\":\"double\",\"kind\":\"tap\",\"taps\":2},"
        "{\"name\":\"single\",\"kind\":\"tap\",\"requireToFail\":[\"double\"]}]}}\n";
    check(lines == 4 && strcmp(sent, again) == 0, "reconnect: subscriptions in order, coalesce, the surfaces still registered");
    if (strcmp(sent, again) != 0) fprintf(stderr, "sent again:\n%s", sent);
    /* Drag session requests (1.1). */
    const char *drop_types[] = {"text/plain", "image/*", NULL};
    int64_t roles = touchd_client_drag_surface(c, "map \"1\"", false, true, drop_types);
    int64_t items = touchd_client_drag_items(c, 4, "[{\"representations\":[{\"type\":\"text/plain\",\"data\":\"Lyon\"}]}]");
    int64_t proposal = touchd_client_drop_proposal(c, 2, "copy");
    lines = read_lines(server, sent, sizeof sent, 3);
    const char *drags =
        "{\"op\":\"drag-surface\",\"id\":11,\"surface\":\"map \\\"1\\\"\",\"addsItems\":true,\"dropTypes\":[\"text/plain\",\"image/*\"]}\n"
        "{\"op\":\"drag-items\",\"id\":12,\"request\":4,\"items\":[{\"representations\":[{\"type\":\"text/plain\",\"data\":\"Lyon\"}]}]}\n"
        "{\"op\":\"drop-proposal\",\"id\":13,\"session\":2,\"operation\":\"copy\"}\n";
    check(roles == 11 && items == 12 && proposal == 13 && lines == 3 && strcmp(sent, drags) == 0 &&
          touchd_client_drag_surface(c, NULL, true, false, NULL) == -EINVAL && touchd_client_drag_items(c, 0, "[]") == -EINVAL &&
          touchd_client_drop_proposal(c, 1, NULL) == -EINVAL,
          "requests: drag-surface, drag-items, drop-proposal as exact lines; bad arguments -EINVAL");
    if (strcmp(sent, drags) != 0) fprintf(stderr, "sent:\n%s", sent);
    /* Reconnect again: the drag roles after the surfaces. */
    close(server);
    check(touchd_client_read_event(c, &e) == -EPIPE && touchd_client_reconnect(c) == 0, "reconnect: again");
    server = accept(listener, NULL, NULL);
    lines = read_lines(server, sent, sizeof sent, 5);
    const char *last = strstr(sent, "{\"op\":\"register\",\"id\":17,");
    const char *roles_again = "{\"op\":\"drag-surface\",\"id\":18,\"surface\":\"map \\\"1\\\"\",\"addsItems\":true,\"dropTypes\":[\"text/plain\",\"image/*\"]}\n";
    check(lines == 5 && last && strstr(last, roles_again) != NULL, "reconnect: the drag roles sent again after the surfaces");
    if (!last || !strstr(last, roles_again)) fprintf(stderr, "sent again:\n%s", sent);
    /* drag-surface with flags (1.2): compact. */
    int64_t flagged = touchd_client_drag_surface_flags(c, "map \"1\"", TOUCHD_DRAG_ADDS_ITEMS | TOUCHD_DRAG_COMPACT, NULL);
    lines = read_lines(server, sent, sizeof sent, 1);
    const char *compact = "{\"op\":\"drag-surface\",\"id\":19,\"surface\":\"map \\\"1\\\"\",\"addsItems\":true,\"compact\":true}\n";
    check(flagged == 19 && lines == 1 && strcmp(sent, compact) == 0 && touchd_client_drag_surface_flags(c, "map", 8u, NULL) == -EINVAL,
          "requests: drag-surface with flags, compact; an unknown flag -EINVAL");
    if (strcmp(sent, compact) != 0) fprintf(stderr, "sent:\n%s", sent);
    /* frames (1.3): the display's frames, with and without prediction, and off. */
    int64_t framed = touchd_client_frames(c, 16.5, 12.25, 8);
    int64_t plain = touchd_client_frames(c, 8, 0, -1);
    int64_t off = touchd_client_frames(c, 0, 0, -1);
    lines = read_lines(server, sent, sizeof sent, 3);
    const char *frames =
        "{\"op\":\"frames\",\"id\":20,\"periodMs\":16.5,\"time\":12.25,\"predict\":{\"horizonMs\":8}}\n"
        "{\"op\":\"frames\",\"id\":21,\"periodMs\":8,\"time\":0}\n"
        "{\"op\":\"frames\",\"id\":22,\"periodMs\":0}\n";
    check(framed == 20 && plain == 21 && off == 22 && lines == 3 && strcmp(sent, frames) == 0 &&
          touchd_client_frames(c, NAN, 0, -1) == -EINVAL, "requests: frames with prediction, without, off; NAN -EINVAL");
    if (strcmp(sent, frames) != 0) fprintf(stderr, "sent:\n%s", sent);
    touchd_client_frames(c, 8, 0, -1);
    read_lines(server, sent, sizeof sent, 1);
    close(server);
    check(touchd_client_read_event(c, &e) == -EPIPE && touchd_client_reconnect(c) == 0, "reconnect: with frames");
    server = accept(listener, NULL, NULL);
    lines = read_lines(server, sent, sizeof sent, 6);
    const char *refr = strstr(sent, "{\"op\":\"frames\",\"id\":27,\"periodMs\":8,\"time\":0}\n");
    check(lines == 6 && refr && strstr(sent, "\"op\":\"coalesce\"") < refr && strstr(refr, "\"op\":\"register\"") != NULL,
          "reconnect: the last frames sent again, after coalesce, before the surfaces");
    if (!strstr(sent, "\"frames\"")) fprintf(stderr, "sent again:\n%s", sent);
    check(touchd_client_reconnect_delay_ms(1) == 100 && touchd_client_reconnect_delay_ms(3) == 400 &&
          touchd_client_reconnect_delay_ms(40) == 2000, "reconnect: delays of 100 ms doubling to 2 s");
    close(server);
    touchd_surface_free(s);
    touchd_surface_free(gone);
    touchd_client_free(c);
    close(listener);
    unlink(socket_path);
    rmdir(path);
    return failures ? 1 : 0;
}

/* test-client --corpus FILE: every line of FILE (server messages) read
 * through the library from a stand-in server, printed member by member as
 * `path kind value` (s string, n number as %.17g, b bool, a array length,
 * x object or null) with a blank line after each message; check-c.sh
 * compares it with the same made from Python's json module. */
static int corpus(const char *file) {
    FILE *in = fopen(file, "r");
    if (!in) { perror(file); return 2; }
    char path[] = "/tmp/touchd-c-corpus-XXXXXX";
    if (!mkdtemp(path)) return 2;
    char socket_path[64];
    snprintf(socket_path, sizeof socket_path, "%s/s", path);
    int listener = listen_at(socket_path);
    touchd_client *c = touchd_client_new();
    if (listener < 0 || !c || touchd_client_connect(c, socket_path) < 0) return 2;
    int server = accept(listener, NULL, NULL);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t n;
    int status = 0;
    while ((n = getline(&line, &capacity, in)) > 0) {
        if (write(server, line, (size_t)n) != n) { status = 2; break; }
        if (line[n - 1] != '\n' && write(server, "\n", 1) != 1) { status = 2; break; }
        const touchd_event *e;
        if (touchd_client_read_event(c, &e) != 1) { fprintf(stderr, "not read: %s", line); status = 1; continue; }
        for (size_t i = 0; i < touchd_event_get_member_count(e); i++) {
            const char *p = touchd_event_get_member_path(e, i);
            const char *text = touchd_event_get_string(e, p);
            double d;
            bool b;
            if (text) printf("%s s %s\n", p, text);
            else if (touchd_event_get_number(e, p, &d)) printf("%s n %.17g\n", p, d);
            else if (touchd_event_get_bool(e, p, &b)) printf("%s b %s\n", p, b ? "true" : "false");
            else if (touchd_event_get_array_length(e, p) >= 0) printf("%s a %lld\n", p, (long long)touchd_event_get_array_length(e, p));
            else printf("%s x\n", p);
        }
        printf("\n");
    }
    free(line);
    fclose(in);
    close(server);
    touchd_client_free(c);
    close(listener);
    unlink(socket_path);
    rmdir(path);
    return status;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--corpus") == 0) return corpus(argv[2]);
    if (argc != 2) { fprintf(stderr, "usage: test-client --parser | --corpus FILE | SOCKET\n"); return 2; }
    if (strcmp(argv[1], "--parser") == 0) return parser_tests();
    touchd_client *c = touchd_client_new();
    check(c && touchd_client_connect(c, argv[1]) == 0, "connects");
    check(touchd_client_set_nonblocking(c, true) == 0, "nonblocking");
    const touchd_event *e = NULL;
    int64_t n = -1;
    size_t length = 0;

    check(next(c, &e) == 1 && touchd_event_get_type(e) == TOUCHD_HELLO, "the first event is the hello");
    check(touchd_event_get_integer(e, "protocol", &n) && n == 1 &&
          strncmp(str(touchd_event_get_string(e, "server")), "touchd ", 7) == 0, "hello: protocol 1, server touchd");
    check(touchd_event_get_array_length(e, "devices") == 1 && touchd_event_get_array_length(e, "screens") == 1 &&
          touchd_event_get_integer(e, "screens.0.width", &n) && n > 0, "hello: 1 device, 1 screen with its width");
    const char *json = touchd_event_get_json(e, &length);
    check(json && json[0] == '{' && json[length] == '\0' && strstr(json, "\"devices\""), "hello: the line itself");
    check(touchd_client_read_event(c, &e) == 0, "nothing to read: 0 at once");

    /* Answers: ids, codes, escapes. */
    /* The left of the screen: two of the recording's four fingers. */
    touchd_surface *main_surface = touchd_surface_new("main", 0, 0, 900, 1080);
    touchd_surface_add_recognizer(main_surface, "drag", "pan");
    touchd_surface *tiny = touchd_surface_new("main", 0, 0, 1, 1);
    int64_t first = touchd_client_register_surface(c, main_surface);
    int64_t again = touchd_client_register_surface(c, tiny);
    int64_t odd = touchd_client_unregister_surface(c, "no \"such\" \\ surface\n");
    int64_t too_slow = touchd_client_coalesce(c, 250);
    int64_t unknown = touchd_client_request(c, "teleport", NULL);
    check(first > 0 && again == first + 1 && odd == again + 1 && too_slow == odd + 1 && unknown == too_slow + 1,
          "requests get increasing ids");
    check(answer(c, first, &e) == 1 && touchd_event_get_type(e) == TOUCHD_ACK, "register: ack with its id");
    check(answer(c, again, &e) == 1 && touchd_event_get_type(e) == TOUCHD_ERROR &&
          strcmp(str(touchd_event_get_error_code(e)), "surface-exists") == 0 && *str(touchd_event_get_error_message(e)) != '-',
          "register again: error surface-exists with a message");
    check(answer(c, odd, &e) == 1 && touchd_event_get_type(e) == TOUCHD_ERROR &&
          strcmp(str(touchd_event_get_error_code(e)), "unknown-surface") == 0 &&
          strstr(str(touchd_event_get_error_message(e)), "no \"such\" \\ surface\n") != NULL,
          "unregister of an unknown id: unknown-surface, the id's quotes, backslash and newline unescaped");
    check(answer(c, too_slow, &e) == 1 && strcmp(str(touchd_event_get_error_code(e)), "bad-field") == 0, "coalesce 250: bad-field");
    check(answer(c, unknown, &e) == 1 && strcmp(str(touchd_event_get_error_code(e)), "unknown-op") == 0, "unknown op: unknown-op");
    /* Frames at 60 Hz, predicted 8 ms ahead; a negative period is refused, naming the field. */
    int64_t bad_frames = touchd_client_frames(c, -16, 0, -1);
    check(answer(c, bad_frames, &e) == 1 && strcmp(str(touchd_event_get_error_code(e)), "bad-field") == 0 &&
          strncmp(str(touchd_event_get_error_message(e)), "periodMs:", 9) == 0, "frames -16: bad-field periodMs");
    int64_t framed = touchd_client_frames(c, 16.667, 0, 8);
    check(answer(c, framed, &e) == 1 && touchd_event_get_type(e) == TOUCHD_ACK, "frames: ack");

    /* The stream: starts the replay (the reference is the other subscriber). */
    int64_t subscribed = touchd_client_subscribe(c, TOUCHD_STREAM_GESTURE | TOUCHD_STREAM_TOUCH | TOUCHD_STREAM_DEVICE, NULL);
    check(answer(c, subscribed, &e) == 1 && touchd_event_get_type(e) == TOUCHD_ACK, "subscribe: ack");
    int own = 0, owned_touches = 0, motion = 0, predicted = 0, misplaced = 0, r;
    while ((r = next(c, &e)) == 1 && touchd_event_get_type(e) != TOUCHD_GOODBYE) {
        /* What belongs to the surface is this client's only; the rest is
         * what every subscriber gets, the reference too. */
        touchd_point at = {NAN, NAN}, mm = {NAN, NAN}, tr = {NAN, NAN}, v = {NAN, NAN};
        double time = touchd_event_get_time(e);
        int64_t touches = -1, screen = -1;
        if (strcmp(str(touchd_event_get_surface(e)), "main") == 0) {
            own += touchd_event_get_type(e) == TOUCHD_GESTURE && strcmp(str(touchd_event_get_recognizer(e)), "drag") == 0 &&
                   touchd_event_get_integer(e, "touches", &touches) && touches >= 1 && touchd_event_get_point(e, "translation", &tr);
            owned_touches += touchd_event_get_type(e) == TOUCHD_TOUCH;
            continue;
        }
        switch (touchd_event_get_type(e)) {
        case TOUCHD_GESTURE:
            touchd_event_get_point(e, "location", &at);
            touchd_event_get_point(e, "translation", &tr);
            touchd_event_get_point(e, "velocity", &v);
            touchd_event_get_integer(e, "touches", &touches);
            printf("gesture %s %s %s %s %lld %lld %.6f %.2f %.2f %.2f %.2f %.1f %.1f %s\n", str(touchd_event_get_surface(e)),
                   str(touchd_event_get_recognizer(e)), str(touchd_event_get_kind(e)), str(touchd_event_get_state(e)),
                   (long long)touches, (long long)touchd_event_get_device(e), time, at.x, at.y, tr.x, tr.y, v.x, v.y,
                   str(touchd_event_get_string(e, "direction")));
            break;
        case TOUCHD_TOUCH:
            touchd_event_get_point(e, "location", &at);
            touchd_event_get_point(e, "locationMM", &mm);
            touchd_event_get_integer(e, "screen", &screen);
            printf("touch %lld %lld %s %s %s %lld %.6f %.2f %.2f %.2f %.2f\n", (long long)touchd_event_get_device(e),
                   (long long)touchd_event_get_touch_id(e), str(touchd_event_get_phase(e)),
                   str(touchd_event_get_string(e, "touchType")), str(touchd_event_get_string(e, "tool")), (long long)screen,
                   time, at.x, at.y, mm.x, mm.y);
            break;
        case TOUCHD_MOTION: {
            /* Not printed: the reference client asked for no frames. */
            double frame = NAN, taken = NAN;
            motion++;
            predicted += touchd_event_get_point(e, "predicted.location", &at) && touchd_event_get_number(e, "predicted.time", &taken);
            misplaced += !(touchd_event_get_number(e, "frame", &frame) && fabs(frame - 0.005 - time) < 2e-6 &&
                           touchd_event_get_point(e, "location", &at) && touchd_event_get_string(e, "sample") != NULL);
            break;
        }
        case TOUCHD_DEVICE:
            printf("device %s %lld %s\n", str(touchd_event_get_string(e, "change")), (long long)touchd_event_get_device(e),
                   str(touchd_event_get_string(e, "device.name")));
            break;
        default:
            break;
        }
    }
    check(r == 1 && touchd_event_get_type(e) == TOUCHD_GOODBYE && strcmp(str(touchd_event_get_string(e, "reason")), "shutdown") == 0,
          "goodbye: shutdown");
    check(own > 3, "the surface's own recognizer: its gestures");
    check(owned_touches > 3, "the surface's raw touches, marked with the surface");
    check(motion > 10 && predicted > 0 && misplaced == 0, "frames: motion events, each 5 ms before its frame, some predicted");
    check(next(c, &e) == -EPIPE, "after goodbye: -EPIPE");
    touchd_surface_free(main_surface);
    touchd_surface_free(tiny);
    touchd_client_free(c);
    return failures ? 1 : 0;
}
