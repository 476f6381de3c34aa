/* SPDX-License-Identifier: MIT */
/* libtouchd-client: see touchd-client.h. */
#define _GNU_SOURCE
#include "touchd-client.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* Server lines have no length limit in protocol 1; a hello with many devices
 * is the longest in practice. Past this, the line is refused (-EMSGSIZE). */
#define MAX_LINE (16u << 20)
#define MAX_DEPTH 64
/* Member paths longer than this are not kept (nothing of the protocol's is). */
#define MAX_PATH 256

typedef struct buffer {
    char *data;
    size_t length, capacity;
} buffer;

typedef enum { M_NULL, M_BOOL, M_NUMBER, M_STRING, M_OBJECT, M_ARRAY } member_kind;

/* One member of the message, by its path. */
typedef struct member {
    size_t path;        /* offset of its NUL-terminated path in the event's paths */
    member_kind kind;
    const char *text;   /* M_STRING, in the scratch buffer */
    double number;      /* M_NUMBER; M_BOOL: 0 or 1 */
    int64_t count;      /* M_ARRAY: elements */
} member;

struct touchd_event {
    touchd_event_type type;
    const char *type_name;
    const char *json;
    size_t json_length;
    member *members;
    size_t count, capacity;
    buffer paths;
};

/* What reconnect sends again: requests in order, by kind. */
typedef struct setup {
    char **subscriptions;   /* subscribe and unsubscribe requests' fields ("op" first) */
    size_t subscription_count;
    char *coalesce;         /* the last coalesce's fields, or NULL */
    char *frames;           /* the last frames' fields, or NULL (none, or stopped) */
    char **surface_ids;     /* registered surfaces and their last description */
    char **surface_fields;
    size_t surface_count;
    char **drag_ids;        /* surfaces' drag roles (drag-surface fields), sent after the surfaces */
    char **drag_fields;
    size_t drag_count;
} setup;

struct touchd_client {
    int fd;
    bool nonblocking;
    int64_t next_id;
    char *path;         /* the last connect's, for reconnect */
    buffer in;          /* bytes read, not yet returned as events */
    size_t consumed;    /* bytes of `in` already returned */
    buffer out;         /* requests not yet written */
    buffer line;        /* the current event's line (json) */
    buffer scratch;     /* its unescaped strings */
    touchd_event event;
    setup setup;
};

static int reserve(buffer *b, size_t extra) {
    if (b->length + extra <= b->capacity) return 0;
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->length + extra) capacity *= 2;
    char *data = realloc(b->data, capacity);
    if (!data) return -ENOMEM;
    b->data = data;
    b->capacity = capacity;
    return 0;
}

static int append(buffer *b, const char *bytes, size_t n) {
    int r = reserve(b, n);
    if (r < 0) return r;
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
    return 0;
}

/* Appends s as a JSON string. */
static int append_string(buffer *b, const char *s) {
    int r = append(b, "\"", 1);
    for (; r == 0 && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char escaped[8];
        if (ch == '"' || ch == '\\') {
            escaped[0] = '\\'; escaped[1] = (char)ch;
            r = append(b, escaped, 2);
        } else if (ch < 0x20) {
            snprintf(escaped, sizeof escaped, "\\u%04x", ch);
            r = append(b, escaped, 6);
        } else {
            r = append(b, (const char *)&ch, 1);
        }
    }
    return r ? r : append(b, "\"", 1);
}

static int append_number(buffer *b, double value) {
    if (!isfinite(value)) return -EINVAL;
    char text[64];
    int n = snprintf(text, sizeof text, "%.17g", value);
    return append(b, text, (size_t)n);
}

/* A NUL-terminated copy of the buffer's bytes, or NULL. */
static char *copy_out(const buffer *b) {
    char *s = malloc(b->length + 1);
    if (!s) return NULL;
    if (b->length) memcpy(s, b->data, b->length);
    s[b->length] = '\0';
    return s;
}

static void free_setup(setup *s) {
    for (size_t i = 0; i < s->subscription_count; i++) free(s->subscriptions[i]);
    for (size_t i = 0; i < s->surface_count; i++) { free(s->surface_ids[i]); free(s->surface_fields[i]); }
    for (size_t i = 0; i < s->drag_count; i++) { free(s->drag_ids[i]); free(s->drag_fields[i]); }
    free(s->drag_ids);
    free(s->drag_fields);
    free(s->subscriptions);
    free(s->surface_ids);
    free(s->surface_fields);
    free(s->coalesce);
    free(s->frames);
    memset(s, 0, sizeof *s);
}

EXPORT touchd_client *touchd_client_new(void) {
    touchd_client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->fd = -1;
    c->next_id = 1;
    return c;
}

EXPORT void touchd_client_close(touchd_client *c) {
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    c->in.length = c->consumed = 0;
    c->out.length = 0;
}

EXPORT void touchd_client_free(touchd_client *c) {
    if (!c) return;
    touchd_client_close(c);
    free(c->in.data);
    free(c->out.data);
    free(c->line.data);
    free(c->scratch.data);
    free(c->event.members);
    free(c->event.paths.data);
    free(c->path);
    free_setup(&c->setup);
    free(c);
}

static int open_socket(touchd_client *c, const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) return -ENAMETOOLONG;
    strcpy(address.sun_path, path);
    touchd_client_close(c);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    c->fd = fd;
    if (c->nonblocking) return touchd_client_set_nonblocking(c, true);
    return 0;
}

EXPORT int touchd_client_connect(touchd_client *c, const char *path) {
    if (!path) path = TOUCHD_CLIENT_DEFAULT_SOCKET;
    char *copy = strdup(path);
    if (!copy) return -ENOMEM;
    free(c->path);
    c->path = copy;
    return open_socket(c, copy);
}

EXPORT int touchd_client_fd(const touchd_client *c) { return c->fd; }

EXPORT int touchd_client_set_nonblocking(touchd_client *c, bool nonblocking) {
    c->nonblocking = nonblocking;
    if (c->fd < 0) return 0;
    int flags = fcntl(c->fd, F_GETFL);
    if (flags < 0) return -errno;
    flags = nonblocking ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    return fcntl(c->fd, F_SETFL, flags) < 0 ? -errno : 0;
}

EXPORT bool touchd_client_wants_write(const touchd_client *c) { return c->out.length > 0; }

EXPORT int touchd_client_flush(touchd_client *c) {
    if (c->fd < 0) return -ENOTCONN;
    size_t written = 0;
    while (written < c->out.length) {
        ssize_t n = send(c->fd, c->out.data + written, c->out.length - written, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            return -errno;
        }
        written += (size_t)n;
    }
    if (written) memmove(c->out.data, c->out.data + written, c->out.length - written);
    c->out.length -= written;
    return c->out.length ? 1 : 0;
}

/* --- requests ---------------------------------------------------------------- */

/* Sends `{"op":OP,"id":N,` + fields + `}\n`, built by the caller into
 * fields (without braces). */
static int64_t send_request(touchd_client *c, const char *op, const char *fields, size_t fields_length) {
    if (c->fd < 0) return -ENOTCONN;
    int64_t id = c->next_id;
    char head[128];
    int n = snprintf(head, sizeof head, "{\"op\":\"%s\",\"id\":%lld", op, (long long)id);
    if (n < 0 || (size_t)n >= sizeof head) return -EINVAL;
    size_t mark = c->out.length;
    int r = append(&c->out, head, (size_t)n);
    if (r == 0 && fields_length) r = append(&c->out, ",", 1);
    if (r == 0) r = append(&c->out, fields, fields_length);
    if (r == 0) r = append(&c->out, "}\n", 2);
    if (r < 0) { c->out.length = mark; return r; }
    c->next_id++;
    do {
        r = touchd_client_flush(c);
        if (r == 1 && !c->nonblocking) {
            struct pollfd p = {.fd = c->fd, .events = POLLOUT};
            if (poll(&p, 1, -1) < 0 && errno != EINTR) return -errno;
        }
    } while (r == 1 && !c->nonblocking);
    return r < 0 ? r : id;
}

static int64_t finish(touchd_client *c, const char *op, buffer *fields, int r) {
    int64_t result = r < 0 ? r : send_request(c, op, fields->data ? fields->data : "", fields->length);
    free(fields->data);
    return result;
}

EXPORT int64_t touchd_client_request(touchd_client *c, const char *op, const char *fields_json) {
    if (!op || !*op || strpbrk(op, "\"\\\n")) return -EINVAL;
    if (fields_json && strchr(fields_json, '\n')) return -EINVAL;
    return send_request(c, op, fields_json ? fields_json : "", fields_json ? strlen(fields_json) : 0);
}

static const char *const stream_names[] = {"gesture", "touch", "system", "device", "debug"};
#define STREAM_COUNT (sizeof stream_names / sizeof *stream_names)

static int append_streams(buffer *b, unsigned streams) {
    if (streams == 0 || streams >> STREAM_COUNT) return -EINVAL;
    int r = append(b, "\"events\":[", 10);
    bool first = true;
    for (size_t i = 0; r == 0 && i < STREAM_COUNT; i++) {
        if (!(streams & (1u << i))) continue;
        if (!first) r = append(b, ",", 1);
        if (r == 0) r = append_string(b, stream_names[i]);
        first = false;
    }
    return r ? r : append(b, "]", 1);
}

/* Keeps a subscribe or unsubscribe for reconnect: "op" then the fields. */
static int remember_subscription(touchd_client *c, const char *op, const buffer *fields) {
    buffer b = {0};
    int r = append(&b, op, strlen(op));
    if (r == 0) r = append(&b, "\n", 1);
    if (r == 0 && fields->length) r = append(&b, fields->data, fields->length);
    char *s = r == 0 ? copy_out(&b) : NULL;
    free(b.data);
    if (!s) return -ENOMEM;
    char **list = realloc(c->setup.subscriptions, (c->setup.subscription_count + 1) * sizeof *list);
    if (!list) { free(s); return -ENOMEM; }
    c->setup.subscriptions = list;
    list[c->setup.subscription_count++] = s;
    return 0;
}

EXPORT int64_t touchd_client_subscribe(touchd_client *c, unsigned streams, const char *const *kinds) {
    buffer f = {0};
    int r = append_streams(&f, streams);
    if (r == 0 && kinds) {
        if (!kinds[0]) r = -EINVAL;
        if (r == 0) r = append(&f, ",\"filter\":{\"kinds\":[", 20);
        for (size_t i = 0; r == 0 && kinds[i]; i++) {
            if (i) r = append(&f, ",", 1);
            if (r == 0) r = *kinds[i] ? append_string(&f, kinds[i]) : -EINVAL;
        }
        if (r == 0) r = append(&f, "]}", 2);
    }
    int64_t id = r < 0 ? r : send_request(c, "subscribe", f.data ? f.data : "", f.length);
    if (id > 0 && remember_subscription(c, "subscribe", &f) < 0) id = -ENOMEM;
    free(f.data);
    return id;
}

EXPORT int64_t touchd_client_unsubscribe(touchd_client *c, unsigned streams) {
    buffer f = {0};
    int r = streams ? append_streams(&f, streams) : 0;
    int64_t id = r < 0 ? r : send_request(c, "unsubscribe", f.data ? f.data : "", f.length);
    if (id > 0 && remember_subscription(c, "unsubscribe", &f) < 0) id = -ENOMEM;
    free(f.data);
    return id;
}

EXPORT int64_t touchd_client_coalesce(touchd_client *c, double interval_ms) {
    buffer f = {0};
    int r = append(&f, "\"intervalMs\":", 13);
    if (r == 0) r = append_number(&f, interval_ms);
    int64_t id = r < 0 ? r : send_request(c, "coalesce", f.data, f.length);
    if (id > 0) {
        char *s = copy_out(&f);
        if (!s) id = -ENOMEM;
        else { free(c->setup.coalesce); c->setup.coalesce = s; }
    }
    free(f.data);
    return id;
}

EXPORT int64_t touchd_client_frames(touchd_client *c, double period_ms, double time, double horizon_ms) {
    if (isnan(period_ms) || isnan(time) || isnan(horizon_ms)) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"periodMs\":", 11);
    if (r == 0) r = append_number(&f, period_ms);
    if (r == 0 && period_ms != 0) {
        r = append(&f, ",\"time\":", 8);
        if (r == 0) r = append_number(&f, time);
        if (r == 0 && horizon_ms >= 0) r = append(&f, ",\"predict\":{\"horizonMs\":", 24);
        if (r == 0 && horizon_ms >= 0) r = append_number(&f, horizon_ms);
        if (r == 0 && horizon_ms >= 0) r = append(&f, "}", 1);
    }
    int64_t id = r < 0 ? r : send_request(c, "frames", f.data, f.length);
    if (id > 0) {
        free(c->setup.frames);
        c->setup.frames = NULL;
        if (period_ms != 0 && !(c->setup.frames = copy_out(&f))) id = -ENOMEM;
    }
    free(f.data);
    return id;
}

EXPORT int64_t touchd_client_ping(touchd_client *c) { return send_request(c, "ping", "", 0); }

/* A surface's drag roles for reconnect, replacing earlier ones (empty roles are kept too: touchd forgets them the same way). */
static int remember_drag(setup *s, const char *id, const buffer *f) {
    char *text = copy_out(f);
    if (!text) return -ENOMEM;
    for (size_t i = 0; i < s->drag_count; i++)
        if (strcmp(s->drag_ids[i], id) == 0) { free(s->drag_fields[i]); s->drag_fields[i] = text; return 0; }
    char *key = strdup(id);
    char **ids = realloc(s->drag_ids, (s->drag_count + 1) * sizeof *ids);
    if (ids) s->drag_ids = ids;
    char **all = ids ? realloc(s->drag_fields, (s->drag_count + 1) * sizeof *all) : NULL;
    if (all) s->drag_fields = all;
    if (!key || !ids || !all) { free(key); free(text); return -ENOMEM; }
    ids[s->drag_count] = key;
    all[s->drag_count] = text;
    s->drag_count++;
    return 0;
}

static void forget_drag(setup *s, const char *id) {
    for (size_t i = 0; i < s->drag_count; i++) {
        if (strcmp(s->drag_ids[i], id) != 0) continue;
        free(s->drag_ids[i]);
        free(s->drag_fields[i]);
        s->drag_count--;
        memmove(&s->drag_ids[i], &s->drag_ids[i + 1], (s->drag_count - i) * sizeof *s->drag_ids);
        memmove(&s->drag_fields[i], &s->drag_fields[i + 1], (s->drag_count - i) * sizeof *s->drag_fields);
        return;
    }
}

EXPORT int64_t touchd_client_drag_surface(touchd_client *c, const char *surface_id, bool offers_items,
                                          bool adds_items, const char *const *drop_types) {
    return touchd_client_drag_surface_flags(c, surface_id, (offers_items ? TOUCHD_DRAG_OFFERS_ITEMS : 0u) |
                                                               (adds_items ? TOUCHD_DRAG_ADDS_ITEMS : 0u), drop_types);
}

EXPORT int64_t touchd_client_drag_surface_flags(touchd_client *c, const char *surface_id, unsigned flags,
                                                const char *const *drop_types) {
    if (!surface_id || (flags & ~(TOUCHD_DRAG_OFFERS_ITEMS | TOUCHD_DRAG_ADDS_ITEMS | TOUCHD_DRAG_COMPACT))) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"surface\":", 10);
    if (r == 0) r = append_string(&f, surface_id);
    if (r == 0 && (flags & TOUCHD_DRAG_OFFERS_ITEMS)) r = append(&f, ",\"offersItems\":true", 19);
    if (r == 0 && (flags & TOUCHD_DRAG_ADDS_ITEMS)) r = append(&f, ",\"addsItems\":true", 17);
    if (r == 0 && (flags & TOUCHD_DRAG_COMPACT)) r = append(&f, ",\"compact\":true", 15);
    if (r == 0 && drop_types && *drop_types) {
        r = append(&f, ",\"dropTypes\":[", 14);
        for (size_t i = 0; r == 0 && drop_types[i]; i++) {
            if (i) r = append(&f, ",", 1);
            if (r == 0) r = append_string(&f, drop_types[i]);
        }
        if (r == 0) r = append(&f, "]", 1);
    }
    int64_t id = r < 0 ? r : send_request(c, "drag-surface", f.data, f.length);
    if (id > 0 && remember_drag(&c->setup, surface_id, &f) < 0) id = -ENOMEM;
    free(f.data);
    return id;
}

EXPORT int64_t touchd_client_drag_items(touchd_client *c, int64_t request, const char *items_json) {
    if (!items_json || request < 1) return -EINVAL;
    buffer f = {0};
    char number[48];
    int n = snprintf(number, sizeof number, "\"request\":%lld,\"items\":", (long long)request);
    int r = append(&f, number, (size_t)n);
    if (r == 0) r = append(&f, items_json, strlen(items_json));
    return finish(c, "drag-items", &f, r);
}

EXPORT int64_t touchd_client_drop_proposal(touchd_client *c, int64_t session, const char *operation) {
    if (!operation || session < 1) return -EINVAL;
    buffer f = {0};
    char number[48];
    int n = snprintf(number, sizeof number, "\"session\":%lld,\"operation\":", (long long)session);
    int r = append(&f, number, (size_t)n);
    if (r == 0) r = append_string(&f, operation);
    return finish(c, "drop-proposal", &f, r);
}

EXPORT unsigned touchd_client_reconnect_delay_ms(unsigned attempt) {
    unsigned delay = 100;
    for (unsigned i = 1; i < attempt && delay < 2000; i++) delay *= 2;
    return delay < 2000 ? delay : 2000;
}

EXPORT int touchd_client_reconnect(touchd_client *c) {
    if (!c->path) return -ENOTCONN;
    int r = open_socket(c, c->path);
    if (r < 0) return r;
    setup *s = &c->setup;
    for (size_t i = 0; i < s->subscription_count; i++) {
        const char *op = s->subscriptions[i], *newline = strchr(op, '\n');
        char name[16];
        size_t n = (size_t)(newline - op);
        memcpy(name, op, n);
        name[n] = '\0';
        int64_t id = send_request(c, name, newline + 1, strlen(newline + 1));
        if (id < 0) return (int)id;
    }
    if (s->coalesce) {
        int64_t id = send_request(c, "coalesce", s->coalesce, strlen(s->coalesce));
        if (id < 0) return (int)id;
    }
    if (s->frames) {
        int64_t id = send_request(c, "frames", s->frames, strlen(s->frames));
        if (id < 0) return (int)id;
    }
    for (size_t i = 0; i < s->surface_count; i++) {
        int64_t id = send_request(c, "register", s->surface_fields[i], strlen(s->surface_fields[i]));
        if (id < 0) return (int)id;
    }
    for (size_t i = 0; i < s->drag_count; i++) {
        int64_t id = send_request(c, "drag-surface", s->drag_fields[i], strlen(s->drag_fields[i]));
        if (id < 0) return (int)id;
    }
    return 0;
}

/* --- surfaces ------------------------------------------------------------------ */

/* A member: its key and its value as JSON (arrays without their brackets). */
typedef struct field {
    char *key;
    char *json;
    bool array;
} field;

typedef struct fields {
    field *items;
    size_t count;
} fields;

typedef struct recognizer {
    char *name;
    fields members;  /* "kind" first */
} recognizer;

struct touchd_surface {
    char *id;
    double rect[4];
    fields members;
    recognizer *recognizers;
    size_t recognizer_count;
};

static bool valid_key(const char *key) {
    if (!key || !*key || strlen(key) > 64) return false;
    if (!strcmp(key, "id") || !strcmp(key, "rect") || !strcmp(key, "recognizers") || !strcmp(key, "name")) return false;
    for (const char *p = key; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return false;
    return true;
}

static void free_fields(fields *f) {
    for (size_t i = 0; i < f->count; i++) { free(f->items[i].key); free(f->items[i].json); }
    free(f->items);
    f->items = NULL;
    f->count = 0;
}

/* Sets key to json (replacing it), or appends to the array at key. Takes json. */
static int put_field(fields *f, const char *key, char *json, bool array) {
    if (!json) return -ENOMEM;
    for (size_t i = 0; i < f->count; i++) {
        field *m = &f->items[i];
        if (strcmp(m->key, key) != 0) continue;
        if (array && m->array) {
            size_t a = strlen(m->json), b = strlen(json);
            char *joined = malloc(a + b + 2);
            if (!joined) { free(json); return -ENOMEM; }
            memcpy(joined, m->json, a);
            joined[a] = ',';
            memcpy(joined + a + 1, json, b + 1);
            free(json);
            json = joined;
        }
        free(m->json);
        m->json = json;
        m->array = array;
        return 0;
    }
    field *items = realloc(f->items, (f->count + 1) * sizeof *items);
    char *k = strdup(key);
    if (!items || !k) { if (items) f->items = items; free(k); free(json); return -ENOMEM; }
    f->items = items;
    items[f->count++] = (field){.key = k, .json = json, .array = array};
    return 0;
}

static char *json_number(double value) {
    buffer b = {0};
    char *s = append_number(&b, value) == 0 ? copy_out(&b) : NULL;
    free(b.data);
    return s;
}

static char *json_string(const char *value) {
    buffer b = {0};
    char *s = append_string(&b, value) == 0 ? copy_out(&b) : NULL;
    free(b.data);
    return s;
}

EXPORT touchd_surface *touchd_surface_new(const char *id, double x, double y, double width, double height) {
    if (!id || !*id || !isfinite(x) || !isfinite(y) || !isfinite(width) || !isfinite(height)) return NULL;
    touchd_surface *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->id = strdup(id);
    if (!s->id) { free(s); return NULL; }
    s->rect[0] = x; s->rect[1] = y; s->rect[2] = width; s->rect[3] = height;
    return s;
}

EXPORT void touchd_surface_free(touchd_surface *s) {
    if (!s) return;
    free_fields(&s->members);
    for (size_t i = 0; i < s->recognizer_count; i++) { free(s->recognizers[i].name); free_fields(&s->recognizers[i].members); }
    free(s->recognizers);
    free(s->id);
    free(s);
}

EXPORT int touchd_surface_set_rect(touchd_surface *s, double x, double y, double width, double height) {
    if (!isfinite(x) || !isfinite(y) || !isfinite(width) || !isfinite(height)) return -EINVAL;
    s->rect[0] = x; s->rect[1] = y; s->rect[2] = width; s->rect[3] = height;
    return 0;
}

EXPORT int touchd_surface_set_number(touchd_surface *s, const char *key, double value) {
    if (!valid_key(key) || !isfinite(value)) return -EINVAL;
    return put_field(&s->members, key, json_number(value), false);
}

EXPORT int touchd_surface_set_bool(touchd_surface *s, const char *key, bool value) {
    if (!valid_key(key)) return -EINVAL;
    return put_field(&s->members, key, strdup(value ? "true" : "false"), false);
}

EXPORT int touchd_surface_set_string(touchd_surface *s, const char *key, const char *value) {
    if (!valid_key(key) || !value) return -EINVAL;
    return put_field(&s->members, key, json_string(value), false);
}

EXPORT int touchd_surface_add_string(touchd_surface *s, const char *key, const char *value) {
    if (!valid_key(key) || !value) return -EINVAL;
    return put_field(&s->members, key, json_string(value), true);
}

static recognizer *find_recognizer(touchd_surface *s, const char *name) {
    for (size_t i = 0; name && i < s->recognizer_count; i++)
        if (strcmp(s->recognizers[i].name, name) == 0) return &s->recognizers[i];
    return NULL;
}

EXPORT int touchd_surface_add_recognizer(touchd_surface *s, const char *name, const char *kind) {
    if (!name || !*name || !kind || !*kind) return -EINVAL;
    if (find_recognizer(s, name)) return -EEXIST;
    recognizer *list = realloc(s->recognizers, (s->recognizer_count + 1) * sizeof *list);
    if (!list) return -ENOMEM;
    s->recognizers = list;
    recognizer *r = &list[s->recognizer_count];
    *r = (recognizer){.name = strdup(name)};
    if (!r->name) return -ENOMEM;
    int e = put_field(&r->members, "kind", json_string(kind), false);
    if (e < 0) { free(r->name); return e; }
    s->recognizer_count++;
    return 0;
}

static int recognizer_field(touchd_surface *s, const char *name, const char *key, char *json, bool array) {
    recognizer *r = find_recognizer(s, name);
    if (!r) { free(json); return -ENOENT; }
    if (!valid_key(key)) { free(json); return -EINVAL; }
    return put_field(&r->members, key, json, array);
}

EXPORT int touchd_surface_set_recognizer_number(touchd_surface *s, const char *name, const char *key, double value) {
    if (!isfinite(value)) return -EINVAL;
    return recognizer_field(s, name, key, json_number(value), false);
}

EXPORT int touchd_surface_set_recognizer_bool(touchd_surface *s, const char *name, const char *key, bool value) {
    return recognizer_field(s, name, key, strdup(value ? "true" : "false"), false);
}

EXPORT int touchd_surface_set_recognizer_string(touchd_surface *s, const char *name, const char *key, const char *value) {
    if (!value) return -EINVAL;
    return recognizer_field(s, name, key, json_string(value), false);
}

EXPORT int touchd_surface_add_recognizer_string(touchd_surface *s, const char *name, const char *key, const char *value) {
    if (!value) return -EINVAL;
    return recognizer_field(s, name, key, json_string(value), true);
}

static int append_fields(buffer *b, const fields *f) {
    int r = 0;
    for (size_t i = 0; r == 0 && i < f->count; i++) {
        r = append(b, ",", 1);
        if (r == 0) r = append_string(b, f->items[i].key);
        if (r == 0) r = append(b, ":", 1);
        if (r == 0 && f->items[i].array) r = append(b, "[", 1);
        if (r == 0) r = append(b, f->items[i].json, strlen(f->items[i].json));
        if (r == 0 && f->items[i].array) r = append(b, "]", 1);
    }
    return r;
}

/* `"surface":{...}` */
static int append_surface(buffer *b, const touchd_surface *s) {
    int r = append(b, "\"surface\":{\"id\":", 16);
    if (r == 0) r = append_string(b, s->id);
    const char *names[] = {",\"rect\":{\"x\":", ",\"y\":", ",\"width\":", ",\"height\":"};
    for (int i = 0; i < 4 && r == 0; i++) {
        r = append(b, names[i], strlen(names[i]));
        if (r == 0) r = append_number(b, s->rect[i]);
    }
    if (r == 0) r = append(b, "}", 1);
    if (r == 0) r = append_fields(b, &s->members);
    if (r == 0 && s->recognizer_count) {
        r = append(b, ",\"recognizers\":[", 16);
        for (size_t i = 0; r == 0 && i < s->recognizer_count; i++) {
            r = append(b, i ? ",{\"name\":" : "{\"name\":", i ? 9 : 8);
            if (r == 0) r = append_string(b, s->recognizers[i].name);
            if (r == 0) r = append_fields(b, &s->recognizers[i].members);
            if (r == 0) r = append(b, "}", 1);
        }
        if (r == 0) r = append(b, "]", 1);
    }
    return r ? r : append(b, "}", 1);
}

static int find_surface(const setup *s, const char *id) {
    for (size_t i = 0; i < s->surface_count; i++)
        if (strcmp(s->surface_ids[i], id) == 0) return (int)i;
    return -1;
}

static void forget_surface(setup *s, const char *id) {
    int i = find_surface(s, id);
    if (i < 0) return;
    free(s->surface_ids[i]);
    free(s->surface_fields[i]);
    s->surface_count--;
    memmove(&s->surface_ids[i], &s->surface_ids[i + 1], (s->surface_count - (size_t)i) * sizeof *s->surface_ids);
    memmove(&s->surface_fields[i], &s->surface_fields[i + 1], (s->surface_count - (size_t)i) * sizeof *s->surface_fields);
}

/* Keeps the surface's description for reconnect (replacing an earlier one). */
static int remember_surface(setup *s, const char *id, const buffer *f) {
    char *text = copy_out(f);
    if (!text) return -ENOMEM;
    int i = find_surface(s, id);
    if (i >= 0) { free(s->surface_fields[i]); s->surface_fields[i] = text; return 0; }
    char *key = strdup(id);
    char **ids = realloc(s->surface_ids, (s->surface_count + 1) * sizeof *ids);
    if (ids) s->surface_ids = ids;
    char **all = ids ? realloc(s->surface_fields, (s->surface_count + 1) * sizeof *all) : NULL;
    if (all) s->surface_fields = all;
    if (!key || !ids || !all) { free(key); free(text); return -ENOMEM; }
    ids[s->surface_count] = key;
    all[s->surface_count] = text;
    s->surface_count++;
    return 0;
}

static int64_t surface_request(touchd_client *c, const char *op, const touchd_surface *s) {
    if (!s) return -EINVAL;
    buffer f = {0};
    int r = append_surface(&f, s);
    int64_t id = r < 0 ? r : send_request(c, op, f.data, f.length);
    /* Kept whatever touchd answers: a surface it refused is refused again. */
    if (id > 0 && remember_surface(&c->setup, s->id, &f) < 0) id = -ENOMEM;
    free(f.data);
    return id;
}

EXPORT int64_t touchd_client_register_surface(touchd_client *c, const touchd_surface *s) {
    return surface_request(c, "register", s);
}

EXPORT int64_t touchd_client_update_surface(touchd_client *c, const touchd_surface *s) {
    return surface_request(c, "update", s);
}

EXPORT int64_t touchd_client_unregister_surface(touchd_client *c, const char *surface_id) {
    if (!surface_id) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"surface\":", 10);
    if (r == 0) r = append_string(&f, surface_id);
    int64_t id = finish(c, "unregister", &f, r);
    if (id > 0) {
        forget_surface(&c->setup, surface_id);
        forget_drag(&c->setup, surface_id);
    }
    return id;
}

/* --- parsing ----------------------------------------------------------------------- */

typedef struct parser {
    const char *p, *end;
    char *scratch;       /* unescaped strings go here, NUL-terminated */
    touchd_event *event;
} parser;

static void skip_space(parser *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static int hex4(const char *p, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        v <<= 4;
        if (ch >= '0' && ch <= '9') v |= (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') v |= (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F') v |= (unsigned)(ch - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* A string at s->p (at its quote), unescaped into the scratch buffer. */
static int parse_string(parser *s, const char **out) {
    if (s->p >= s->end || *s->p != '"') return -EBADMSG;
    s->p++;
    char *start = s->scratch, *w = s->scratch;
    while (s->p < s->end && *s->p != '"') {
        unsigned char ch = (unsigned char)*s->p++;
        if (ch < 0x20) return -EBADMSG;
        if (ch != '\\') { *w++ = (char)ch; continue; }
        if (s->p >= s->end) return -EBADMSG;
        char e = *s->p++;
        switch (e) {
        case '"': *w++ = '"'; break;
        case '\\': *w++ = '\\'; break;
        case '/': *w++ = '/'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'u': {
            unsigned cp;
            if (s->end - s->p < 4 || hex4(s->p, &cp) < 0) return -EBADMSG;
            s->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00) { /* a surrogate pair */
                unsigned low;
                if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u' || hex4(s->p + 2, &low) < 0 ||
                    low < 0xDC00 || low > 0xDFFF) return -EBADMSG;
                s->p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                return -EBADMSG;
            }
            /* UTF-8 is never longer than the 6 or 12 escaped bytes. */
            if (cp < 0x80) *w++ = (char)cp;
            else if (cp < 0x800) { *w++ = (char)(0xC0 | cp >> 6); *w++ = (char)(0x80 | (cp & 0x3F)); }
            else if (cp < 0x10000) {
                *w++ = (char)(0xE0 | cp >> 12); *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *w++ = (char)(0x80 | (cp & 0x3F));
            } else {
                *w++ = (char)(0xF0 | cp >> 18); *w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
                *w++ = (char)(0x80 | ((cp >> 6) & 0x3F)); *w++ = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default: return -EBADMSG;
        }
    }
    if (s->p >= s->end) return -EBADMSG;
    s->p++;
    *w++ = '\0';
    s->scratch = w;
    *out = start;
    return 0;
}

static int parse_number(parser *s, double *out) {
    const char *start = s->p;
    if (s->p < s->end && *s->p == '-') s->p++;
    if (s->p >= s->end || *s->p < '0' || *s->p > '9') return -EBADMSG;
    while (s->p < s->end && ((*s->p >= '0' && *s->p <= '9') || *s->p == '.' || *s->p == 'e' || *s->p == 'E' ||
                             *s->p == '+' || *s->p == '-')) s->p++;
    char text[64];
    size_t n = (size_t)(s->p - start);
    if (n >= sizeof text) return -EBADMSG;
    memcpy(text, start, n);
    text[n] = '\0';
    char *end;
    *out = strtod(text, &end);
    return *end ? -EBADMSG : 0;
}

static bool literal(parser *s, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0) return false;
    s->p += n;
    return true;
}


/* Records a member at `path`. */
static int add_member(parser *s, const char *path, member_kind kind, const char *text, double number, int64_t count) {
    touchd_event *e = s->event;
    if (e->count == e->capacity) {
        size_t capacity = e->capacity ? e->capacity * 2 : 32;
        member *members = realloc(e->members, capacity * sizeof *members);
        if (!members) return -ENOMEM;
        e->members = members;
        e->capacity = capacity;
    }
    size_t offset = e->paths.length;
    int r = append(&e->paths, path, strlen(path) + 1);
    if (r < 0) return r;
    e->members[e->count++] = (member){.path = offset, .kind = kind, .text = text, .number = number, .count = count};
    return 0;
}

static int parse_value(parser *s, char *path, size_t path_length, int depth);

/* Extends path with "." + name (or name at the top) when it fits; its new
 * length, or 0 when it does not (the value is then parsed but not kept). */
static size_t extend(char *path, size_t path_length, const char *name, size_t name_length) {
    size_t length = path_length + (path_length ? 1 : 0) + name_length;
    if (path_length == (size_t)-1 || length + 1 > MAX_PATH) return (size_t)-1;
    if (path_length) path[path_length] = '.';
    memcpy(path + length - name_length, name, name_length);
    path[length] = '\0';
    return length;
}

static int parse_object(parser *s, char *path, size_t path_length, int depth) {
    s->p++; /* { */
    if (depth > 0 && path_length != (size_t)-1) {
        int r = add_member(s, path, M_OBJECT, NULL, 0, 0);
        if (r < 0) return r;
    }
    skip_space(s);
    if (s->p < s->end && *s->p == '}') { s->p++; return 0; }
    for (;;) {
        skip_space(s);
        const char *key;
        int r = parse_string(s, &key);
        if (r < 0) return r;
        size_t length = extend(path, path_length, key, strlen(key));
        skip_space(s);
        if (s->p >= s->end || *s->p != ':') return -EBADMSG;
        s->p++;
        skip_space(s);
        r = parse_value(s, path, length, depth + 1);
        if (path_length != (size_t)-1) path[path_length] = '\0';
        if (r < 0) return r;
        skip_space(s);
        if (s->p < s->end && *s->p == ',') { s->p++; continue; }
        if (s->p < s->end && *s->p == '}') { s->p++; return 0; }
        return -EBADMSG;
    }
}

static int parse_array(parser *s, char *path, size_t path_length, int depth) {
    s->p++; /* [ */
    size_t slot = s->event->count;
    if (path_length != (size_t)-1) {
        int r = add_member(s, path, M_ARRAY, NULL, 0, 0);
        if (r < 0) return r;
    }
    int64_t count = 0;
    skip_space(s);
    if (s->p < s->end && *s->p == ']') s->p++;
    else for (;;) {
        skip_space(s);
        char index[24];
        int n = snprintf(index, sizeof index, "%lld", (long long)count);
        size_t length = extend(path, path_length, index, (size_t)n);
        int r = parse_value(s, path, length, depth + 1);
        if (path_length != (size_t)-1) path[path_length] = '\0';
        if (r < 0) return r;
        count++;
        skip_space(s);
        if (s->p < s->end && *s->p == ',') { s->p++; continue; }
        if (s->p < s->end && *s->p == ']') { s->p++; break; }
        return -EBADMSG;
    }
    if (path_length != (size_t)-1) s->event->members[slot].count = count;
    return 0;
}

static int parse_value(parser *s, char *path, size_t path_length, int depth) {
    if (depth > MAX_DEPTH) return -EBADMSG;
    skip_space(s);
    if (s->p >= s->end) return -EBADMSG;
    bool keep = path_length != (size_t)-1;
    switch (*s->p) {
    case '{': return parse_object(s, path, path_length, depth);
    case '[': return parse_array(s, path, path_length, depth);
    case '"': {
        const char *text;
        int r = parse_string(s, &text);
        return r == 0 && keep ? add_member(s, path, M_STRING, text, 0, 0) : r;
    }
    case 't': case 'f': {
        bool value = *s->p == 't';
        if (!literal(s, "true") && !literal(s, "false")) return -EBADMSG;
        return keep ? add_member(s, path, M_BOOL, NULL, value, 0) : 0;
    }
    case 'n':
        if (!literal(s, "null")) return -EBADMSG;
        return keep ? add_member(s, path, M_NULL, NULL, 0, 0) : 0;
    default: {
        double number;
        int r = parse_number(s, &number);
        return r == 0 && keep ? add_member(s, path, M_NUMBER, NULL, number, 0) : r;
    }
    }
}

static const member *find(const touchd_event *e, const char *path) {
    if (!e || !path) return NULL;
    for (size_t i = 0; i < e->count; i++)
        if (strcmp(e->paths.data + e->members[i].path, path) == 0) return &e->members[i];
    return NULL;
}

/* Parses `length` bytes at `text` (one line, no newline) into the event. */
static int parse_into(touchd_event *e, buffer *scratch, const char *text, size_t length) {
    e->count = 0;
    e->paths.length = 0;
    e->type = TOUCHD_UNKNOWN;
    e->type_name = NULL;
    e->json = NULL;
    e->json_length = 0;
    scratch->length = 0;
    int r = reserve(scratch, length + 1);
    if (r < 0) return r;
    parser s = {.p = text, .end = text + length, .scratch = scratch->data, .event = e};
    char path[MAX_PATH] = "";
    skip_space(&s);
    if (s.p >= s.end || *s.p != '{') return -EBADMSG;
    r = parse_value(&s, path, 0, 0);
    if (r < 0) { e->count = 0; return r; }
    skip_space(&s);
    if (s.p != s.end) { e->count = 0; return -EBADMSG; }
    e->json = text;
    e->json_length = length;
    const member *type = find(e, "type");
    e->type_name = type && type->kind == M_STRING ? type->text : NULL;
    static const struct { const char *name; touchd_event_type type; } types[] = {
        {"hello", TOUCHD_HELLO}, {"ack", TOUCHD_ACK}, {"error", TOUCHD_ERROR}, {"touch", TOUCHD_TOUCH},
        {"gesture", TOUCHD_GESTURE}, {"system", TOUCHD_SYSTEM}, {"device", TOUCHD_DEVICE},
        {"overflow", TOUCHD_OVERFLOW}, {"goodbye", TOUCHD_GOODBYE}, {"drag", TOUCHD_DRAG}, {"motion", TOUCHD_MOTION},
    };
    for (size_t i = 0; e->type_name && i < sizeof types / sizeof *types; i++)
        if (strcmp(e->type_name, types[i].name) == 0) e->type = types[i].type;
    return 1;
}

#ifdef TOUCHD_CLIENT_FUZZING
/* The parser alone, for the fuzzer (clients/c/fuzz): 1, or a negative errno. */
int touchd_client_fuzz_parse(const char *text, size_t length);
int touchd_client_fuzz_parse(const char *text, size_t length) {
    touchd_event e = {0};
    buffer scratch = {0};
    int r = parse_into(&e, &scratch, text, length);
    if (r == 1) {
        /* Every accessor on every member path, as a caller might. */
        for (size_t i = 0; i < e.count; i++) {
            const char *path = e.paths.data + e.members[i].path;
            double d; int64_t n; bool b; touchd_point p; size_t len;
            (void)touchd_event_get_string(&e, path);
            (void)touchd_event_get_number(&e, path, &d);
            (void)touchd_event_get_integer(&e, path, &n);
            (void)touchd_event_get_bool(&e, path, &b);
            (void)touchd_event_get_point(&e, path, &p);
            (void)touchd_event_get_array_length(&e, path);
            (void)touchd_event_get_json(&e, &len);
        }
        (void)touchd_event_get_touch_id(&e);
        (void)touchd_event_get_device(&e);
    }
    free(e.members);
    free(e.paths.data);
    free(scratch.data);
    return r;
}
#endif

EXPORT int touchd_client_read_event(touchd_client *c, const touchd_event **event) {
    if (c->fd < 0) return -ENOTCONN;
    for (;;) {
        char *start = c->in.data + c->consumed;
        size_t available = c->in.length - c->consumed;
        char *newline = available ? memchr(start, '\n', available) : NULL;
        if (newline) {
            size_t n = (size_t)(newline - start);
            c->consumed += n + 1;
            if (n && start[n - 1] == '\r') n--;
            bool blank = true;
            for (size_t i = 0; i < n && blank; i++) blank = start[i] == ' ' || start[i] == '\t';
            if (blank) continue;
            c->line.length = 0;
            int r = append(&c->line, start, n);
            if (r == 0) r = append(&c->line, "", 1); /* a NUL after the json */
            if (r < 0) return r;
            c->line.length = n;
            r = parse_into(&c->event, &c->scratch, c->line.data, n);
            if (r == 1 && event) *event = &c->event;
            return r;
        }
        /* Keep the unread part at the start, then read more. */
        if (available && start != c->in.data) memmove(c->in.data, start, available);
        c->in.length = available;
        c->consumed = 0;
        if (available > MAX_LINE) return -EMSGSIZE;
        int r = reserve(&c->in, 65536);
        if (r < 0) return r;
        ssize_t got = recv(c->fd, c->in.data + c->in.length, c->in.capacity - c->in.length, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -errno;
        }
        if (got == 0) return -EPIPE;
        c->in.length += (size_t)got;
    }
}

/* --- accessors ------------------------------------------------------------------ */

EXPORT touchd_event_type touchd_event_get_type(const touchd_event *e) { return e ? e->type : TOUCHD_UNKNOWN; }

EXPORT const char *touchd_event_get_type_name(const touchd_event *e) { return e ? e->type_name : NULL; }

EXPORT const char *touchd_event_get_json(const touchd_event *e, size_t *length) {
    if (length) *length = e ? e->json_length : 0;
    return e ? e->json : NULL;
}

EXPORT bool touchd_event_has(const touchd_event *e, const char *path) { return find(e, path) != NULL; }

EXPORT size_t touchd_event_get_member_count(const touchd_event *e) { return e ? e->count : 0; }

EXPORT const char *touchd_event_get_member_path(const touchd_event *e, size_t i) {
    return e && i < e->count ? e->paths.data + e->members[i].path : NULL;
}

EXPORT const char *touchd_event_get_string(const touchd_event *e, const char *path) {
    const member *m = find(e, path);
    return m && m->kind == M_STRING ? m->text : NULL;
}

EXPORT bool touchd_event_get_number(const touchd_event *e, const char *path, double *value) {
    const member *m = find(e, path);
    if (!m || m->kind != M_NUMBER) return false;
    if (value) *value = m->number;
    return true;
}

EXPORT bool touchd_event_get_integer(const touchd_event *e, const char *path, int64_t *value) {
    const member *m = find(e, path);
    /* Only what an int64_t holds exactly; 2^63 itself does not fit. */
    if (!m || m->kind != M_NUMBER || m->number != floor(m->number) || m->number < -9223372036854775808.0 ||
        m->number >= 9223372036854775808.0) return false;
    if (value) *value = (int64_t)m->number;
    return true;
}

EXPORT bool touchd_event_get_bool(const touchd_event *e, const char *path, bool *value) {
    const member *m = find(e, path);
    if (!m || m->kind != M_BOOL) return false;
    if (value) *value = m->number != 0;
    return true;
}

EXPORT bool touchd_event_get_point(const touchd_event *e, const char *path, touchd_point *point) {
    char key[MAX_PATH + 3];
    if (!path || strlen(path) >= MAX_PATH) return false;
    double x, y;
    snprintf(key, sizeof key, "%s.x", path);
    if (!touchd_event_get_number(e, key, &x)) return false;
    snprintf(key, sizeof key, "%s.y", path);
    if (!touchd_event_get_number(e, key, &y)) return false;
    if (point) *point = (touchd_point){x, y};
    return true;
}

EXPORT int64_t touchd_event_get_array_length(const touchd_event *e, const char *path) {
    const member *m = find(e, path);
    return m && m->kind == M_ARRAY ? m->count : -1;
}

static double number_or_nan(const touchd_event *e, const char *path) {
    double v;
    return touchd_event_get_number(e, path, &v) ? v : NAN;
}

static int64_t integer_or_none(const touchd_event *e, const char *path) {
    int64_t v;
    return touchd_event_get_integer(e, path, &v) ? v : -1;
}

EXPORT double touchd_event_get_time(const touchd_event *e) { return number_or_nan(e, "time"); }

EXPORT int64_t touchd_event_get_device(const touchd_event *e) {
    int64_t v;
    if (touchd_event_get_integer(e, "device", &v)) return v;
    return integer_or_none(e, "device.id");
}

EXPORT int64_t touchd_event_get_touch_id(const touchd_event *e) {
    return touchd_event_get_type(e) == TOUCHD_TOUCH ? integer_or_none(e, "id") : -1;
}

EXPORT int64_t touchd_event_get_request_id(const touchd_event *e) {
    touchd_event_type t = touchd_event_get_type(e);
    return t == TOUCHD_ACK || t == TOUCHD_ERROR ? integer_or_none(e, "id") : -1;
}

EXPORT const char *touchd_event_get_phase(const touchd_event *e) { return touchd_event_get_string(e, "phase"); }
EXPORT const char *touchd_event_get_kind(const touchd_event *e) { return touchd_event_get_string(e, "kind"); }
EXPORT const char *touchd_event_get_state(const touchd_event *e) { return touchd_event_get_string(e, "state"); }
EXPORT const char *touchd_event_get_recognizer(const touchd_event *e) { return touchd_event_get_string(e, "recognizer"); }
EXPORT const char *touchd_event_get_surface(const touchd_event *e) { return touchd_event_get_string(e, "surface"); }
EXPORT const char *touchd_event_get_error_code(const touchd_event *e) { return touchd_event_get_string(e, "code"); }
EXPORT const char *touchd_event_get_error_message(const touchd_event *e) { return touchd_event_get_string(e, "message"); }
