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

typedef struct buffer {
    char *data;
    size_t length, capacity;
} buffer;

struct touchd_client {
    int fd;
    bool nonblocking;
    int64_t next_id;
    buffer in;          /* bytes read, not yet returned as events */
    size_t consumed;    /* bytes of `in` already returned */
    buffer out;         /* requests not yet written */
    buffer line;        /* the current event's line (json) */
    buffer scratch;     /* its unescaped strings */
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
    free(c);
}

EXPORT int touchd_client_connect(touchd_client *c, const char *path) {
    if (!path) path = TOUCHD_CLIENT_DEFAULT_SOCKET;
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

/* Appends a comma-separated list as a JSON array of strings. */
static int append_list(buffer *b, const char *list) {
    int r = append(b, "[", 1);
    const char *p = list;
    bool first = true;
    while (r == 0 && *p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > 0) {
            char *item = strndup(p, n);
            if (!item) return -ENOMEM;
            if (!first) r = append(b, ",", 1);
            if (r == 0) r = append_string(b, item);
            free(item);
            first = false;
        }
        p += n + (end ? 1 : 0);
    }
    if (r == 0 && first) return -EINVAL; /* an empty list */
    return r ? r : append(b, "]", 1);
}

static int append_number(buffer *b, double value) {
    if (!isfinite(value)) return -EINVAL;
    char text[64];
    int n = snprintf(text, sizeof text, "%.17g", value);
    return append(b, text, (size_t)n);
}

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

EXPORT int64_t touchd_client_subscribe(touchd_client *c, const char *streams, const char *kinds) {
    if (!streams) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"events\":", 9);
    if (r == 0) r = append_list(&f, streams);
    if (r == 0 && kinds) {
        r = append(&f, ",\"filter\":{\"kinds\":", 19);
        if (r == 0) r = append_list(&f, kinds);
        if (r == 0) r = append(&f, "}", 1);
    }
    return finish(c, "subscribe", &f, r);
}

EXPORT int64_t touchd_client_unsubscribe(touchd_client *c, const char *streams) {
    buffer f = {0};
    int r = 0;
    if (streams) {
        r = append(&f, "\"events\":", 9);
        if (r == 0) r = append_list(&f, streams);
    }
    return finish(c, "unsubscribe", &f, r);
}

static int64_t surface_request(touchd_client *c, const char *op, const char *surface_id, double x, double y,
                               double width, double height, const char *recognizers_json) {
    if (!surface_id || (recognizers_json && strchr(recognizers_json, '\n'))) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"surface\":{\"id\":", 16);
    if (r == 0) r = append_string(&f, surface_id);
    const char *names[] = {",\"rect\":{\"x\":", ",\"y\":", ",\"width\":", ",\"height\":"};
    double values[] = {x, y, width, height};
    for (int i = 0; i < 4 && r == 0; i++) {
        r = append(&f, names[i], strlen(names[i]));
        if (r == 0) r = append_number(&f, values[i]);
    }
    if (r == 0) r = append(&f, "}", 1);
    if (r == 0 && recognizers_json) {
        r = append(&f, ",\"recognizers\":", 15);
        if (r == 0) r = append(&f, recognizers_json, strlen(recognizers_json));
    }
    if (r == 0) r = append(&f, "}", 1);
    return finish(c, op, &f, r);
}

EXPORT int64_t touchd_client_register(touchd_client *c, const char *surface_id, double x, double y,
                                      double width, double height, const char *recognizers_json) {
    return surface_request(c, "register", surface_id, x, y, width, height, recognizers_json);
}

EXPORT int64_t touchd_client_update(touchd_client *c, const char *surface_id, double x, double y,
                                    double width, double height, const char *recognizers_json) {
    return surface_request(c, "update", surface_id, x, y, width, height, recognizers_json);
}

EXPORT int64_t touchd_client_unregister(touchd_client *c, const char *surface_id) {
    if (!surface_id) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"surface\":", 10);
    if (r == 0) r = append_string(&f, surface_id);
    return finish(c, "unregister", &f, r);
}

EXPORT int64_t touchd_client_coalesce(touchd_client *c, double interval_ms) {
    buffer f = {0};
    int r = append(&f, "\"intervalMs\":", 13);
    if (r == 0) r = append_number(&f, interval_ms);
    return finish(c, "coalesce", &f, r);
}

EXPORT int64_t touchd_client_ping(touchd_client *c) { return send_request(c, "ping", "", 0); }

EXPORT int64_t touchd_client_drag_surface(touchd_client *c, const char *surface_id, bool offers_items,
                                          bool adds_items, const char *drop_types) {
    if (!surface_id) return -EINVAL;
    buffer f = {0};
    int r = append(&f, "\"surface\":", 10);
    if (r == 0) r = append_string(&f, surface_id);
    if (r == 0 && offers_items) r = append(&f, ",\"offersItems\":true", 19);
    if (r == 0 && adds_items) r = append(&f, ",\"addsItems\":true", 17);
    if (r == 0 && drop_types && *drop_types) {
        r = append(&f, ",\"dropTypes\":", 13);
        if (r == 0) r = append_list(&f, drop_types);
    }
    return finish(c, "drag-surface", &f, r);
}

EXPORT int64_t touchd_client_drag_items(touchd_client *c, int64_t request, const char *items_json) {
    if (!items_json || request < 1) return -EINVAL;
    buffer f = {0};
    char number[32];
    int n = snprintf(number, sizeof number, "\"request\":%lld,\"items\":", (long long)request);
    int r = append(&f, number, (size_t)n);
    if (r == 0) r = append(&f, items_json, strlen(items_json));
    return finish(c, "drag-items", &f, r);
}

EXPORT int64_t touchd_client_drop_proposal(touchd_client *c, int64_t session, const char *operation) {
    if (!operation || session < 1) return -EINVAL;
    buffer f = {0};
    char number[32];
    int n = snprintf(number, sizeof number, "\"session\":%lld,", (long long)session);
    int r = append(&f, number, (size_t)n);
    if (r == 0) r = append(&f, "\"operation\":", 12);
    if (r == 0) r = append_string(&f, operation);
    return finish(c, "drop-proposal", &f, r);
}

/* --- parsing ----------------------------------------------------------------------- */

typedef struct parser {
    const char *p, *end;
    char *scratch;       /* unescaped strings go here, NUL-terminated */
    touchd_event *event;
    double raw_id;       /* "id": a touch's or a request's */
    bool has_raw_id;
    int64_t item;        /* drag: the index of the item being parsed */
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

typedef enum { V_NULL, V_BOOL, V_NUMBER, V_STRING } scalar_kind;

/* Puts a scalar at `path` ("type", "location.x", "device.name") into the event. */
static void assign(parser *s, const char *path, scalar_kind kind, const char *text, double number) {
    touchd_event *e = s->event;
    static const struct { const char *path; size_t offset; } strings[] = {
#define S(p, f) {p, offsetof(touchd_event, f)}
        S("type", type_name), S("phase", phase), S("touchType", touch_type), S("tool", tool),
        S("surface", surface), S("owner", owner), S("recognizer", recognizer), S("kind", kind),
        S("state", state), S("event", event), S("name", name), S("direction", direction), S("edge", edge),
        S("code", code), S("message", message), S("change", change), S("device.name", device_name),
        S("server", server), S("reason", reason), S("operation", operation), S("outcome", outcome),
#undef S
    };
    static const struct { const char *path; size_t offset; } numbers[] = {
#define N(p, f) {p, offsetof(touchd_event, f)}
        N("time", time), N("force", force), N("location.x", location.x), N("location.y", location.y),
        N("locationMM.x", location_mm.x), N("locationMM.y", location_mm.y), N("translation.x", translation.x),
        N("translation.y", translation.y), N("velocity.x", velocity.x), N("velocity.y", velocity.y),
        N("scale", scale), N("rotation", rotation),
#undef N
    };
    static const struct { const char *path; size_t offset; } integers[] = {
#define I(p, f) {p, offsetof(touchd_event, f)}
        I("device", device), I("device.id", device), I("screen", screen), I("touches", touches),
        I("protocol", protocol), I("lost", lost), I("session", session), I("request", request),
        I("itemCount", item_count),
#undef I
    };
    if (kind == V_STRING && strcmp(path, "types[]") == 0) {
        if (e->type_count < TOUCHD_DRAG_MAX_DATA) e->types[e->type_count++] = text;
        return;
    }
    if (kind == V_STRING && strncmp(path, "items[].representations[].", 26) == 0) {
        bool type = strcmp(path + 26, "type") == 0, data = strcmp(path + 26, "data") == 0;
        if (!type && !data) return;
        /* A representation's type comes before its data (touchd writes them so); one without a type is skipped. */
        if (type && e->data_count < TOUCHD_DRAG_MAX_DATA) {
            e->data[e->data_count].item = s->item;
            e->data[e->data_count].type = text;
            e->data[e->data_count++].data = NULL;
        } else if (data && e->data_count > 0 && e->data[e->data_count - 1].data == NULL) {
            e->data[e->data_count - 1].data = text;
        }
        return;
    }
    if (kind == V_STRING) {
        for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
            if (strcmp(path, strings[i].path) == 0) *(const char **)((char *)e + strings[i].offset) = text;
    } else if (kind == V_NUMBER) {
        if (strcmp(path, "id") == 0) { s->raw_id = number; s->has_raw_id = true; return; }
        for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
            if (strcmp(path, numbers[i].path) == 0) *(double *)((char *)e + numbers[i].offset) = number;
        /* An integer field holding what no int64_t can (or a fraction
         * beyond it) stays -1 rather than be converted out of range. */
        bool integral = number >= -9.2e18 && number <= 9.2e18;
        for (size_t i = 0; integral && i < sizeof integers / sizeof *integers; i++)
            if (strcmp(path, integers[i].path) == 0) *(int64_t *)((char *)e + integers[i].offset) = (int64_t)number;
    }
}

static int parse_value(parser *s, char *path, size_t path_length, int depth);

static int parse_object(parser *s, char *path, size_t path_length, int depth) {
    s->p++; /* { */
    skip_space(s);
    if (s->p < s->end && *s->p == '}') { s->p++; return 0; }
    for (;;) {
        skip_space(s);
        const char *key;
        int r = parse_string(s, &key);
        if (r < 0) return r;
        /* path + "." + key, when it fits (longer paths name nothing parsed here) */
        size_t key_length = strlen(key), length = path_length;
        bool fits = path_length + key_length + 2 < 128;
        if (fits) {
            if (path_length) path[length++] = '.';
            memcpy(path + length, key, key_length + 1);
            length += key_length;
        }
        skip_space(s);
        if (s->p >= s->end || *s->p != ':') return -EBADMSG;
        s->p++;
        skip_space(s);
        char unused[128] = "~";
        r = fits ? parse_value(s, path, length, depth + 1) : parse_value(s, unused, 1, depth + 1);
        path[path_length] = '\0';
        if (r < 0) return r;
        skip_space(s);
        if (s->p < s->end && *s->p == ',') { s->p++; continue; }
        if (s->p < s->end && *s->p == '}') { s->p++; return 0; }
        return -EBADMSG;
    }
}

static int parse_array(parser *s, char *path, size_t path_length, int depth) {
    s->p++; /* [ */
    int64_t count = 0;
    char element[128] = "~"; /* elements name nothing parsed here, but a drag's types and items */
    bool items = strcmp(path, "items") == 0;
    if (items || strcmp(path, "types") == 0 || strcmp(path, "items[].representations") == 0)
        snprintf(element, sizeof element, "%s[]", path);
    size_t element_length = strlen(element);
    skip_space(s);
    if (s->p < s->end && *s->p == ']') s->p++;
    else for (;;) {
        skip_space(s);
        if (items) s->item = count;
        int r = parse_value(s, element, element_length, depth + 1);
        if (r < 0) return r;
        count++;
        skip_space(s);
        if (s->p < s->end && *s->p == ',') { s->p++; continue; }
        if (s->p < s->end && *s->p == ']') { s->p++; break; }
        return -EBADMSG;
    }
    (void)path_length;
    if (strcmp(path, "devices") == 0) s->event->device_count = count;
    if (strcmp(path, "screens") == 0) s->event->screen_count = count;
    return 0;
}

static int parse_value(parser *s, char *path, size_t path_length, int depth) {
    if (depth > MAX_DEPTH) return -EBADMSG;
    skip_space(s);
    if (s->p >= s->end) return -EBADMSG;
    switch (*s->p) {
    case '{': return parse_object(s, path, path_length, depth);
    case '[': return parse_array(s, path, path_length, depth);
    case '"': {
        const char *text;
        int r = parse_string(s, &text);
        if (r == 0) assign(s, path, V_STRING, text, 0);
        return r;
    }
    case 't': case 'f':
        if (!literal(s, "true") && !literal(s, "false")) return -EBADMSG;
        assign(s, path, V_BOOL, NULL, 0);
        return 0;
    case 'n':
        if (!literal(s, "null")) return -EBADMSG;
        assign(s, path, V_NULL, NULL, 0);
        return 0;
    default: {
        double number;
        int r = parse_number(s, &number);
        if (r == 0) assign(s, path, V_NUMBER, NULL, number);
        return r;
    }
    }
}

static void clear_event(touchd_event *e) {
    static const touchd_point none = {NAN, NAN};
    memset(e, 0, sizeof *e);
    e->time = e->force = e->scale = e->rotation = NAN;
    e->location = e->location_mm = e->translation = e->velocity = none;
    e->device = e->screen = e->touch_id = e->touches = e->id = e->protocol = e->lost = -1;
    e->device_count = e->screen_count = -1;
    e->session = e->request = e->item_count = -1;
}

static int parse_line(touchd_client *c, touchd_event *e) {
    clear_event(e);
    buffer *line = &c->line;
    int r = reserve(&c->scratch, line->length + 1);
    if (r < 0) return r;
    c->scratch.length = 0;
    parser s = {.p = line->data, .end = line->data + line->length, .scratch = c->scratch.data, .event = e};
    char path[128] = "";
    skip_space(&s);
    if (s.p >= s.end || *s.p != '{') return -EBADMSG;
    r = parse_value(&s, path, 0, 0);
    if (r < 0) return r;
    skip_space(&s);
    if (s.p != s.end) return -EBADMSG;
    e->json = line->data;
    e->json_length = line->length;
    static const struct { const char *name; touchd_event_type type; } types[] = {
        {"hello", TOUCHD_HELLO}, {"ack", TOUCHD_ACK}, {"error", TOUCHD_ERROR}, {"touch", TOUCHD_TOUCH},
        {"gesture", TOUCHD_GESTURE}, {"system", TOUCHD_SYSTEM}, {"device", TOUCHD_DEVICE},
        {"overflow", TOUCHD_OVERFLOW}, {"goodbye", TOUCHD_GOODBYE}, {"drag", TOUCHD_DRAG},
    };
    e->type = TOUCHD_UNKNOWN;
    for (size_t i = 0; e->type_name && i < sizeof types / sizeof *types; i++)
        if (strcmp(e->type_name, types[i].name) == 0) e->type = types[i].type;
    if (s.has_raw_id && s.raw_id >= -9.2e18 && s.raw_id <= 9.2e18) {
        if (e->type == TOUCHD_TOUCH) e->touch_id = (int64_t)s.raw_id;
        else e->id = (int64_t)s.raw_id;
    }
    return 1;
}

EXPORT int touchd_client_read_event(touchd_client *c, touchd_event *event) {
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
            return parse_line(c, event);
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
