/* libtouchd-client: a C client for touchd, the Linux touch input daemon.
 *
 * Speaks touchd's socket protocol 1 (docs/protocol.md): JSON lines over a
 * Unix stream socket. The library parses each server line itself and hands
 * the caller one event at a time as a struct of parsed fields; the caller
 * never parses JSON. One file descriptor (touchd_client_fd) goes into the
 * application's own loop (Qt QSocketNotifier, GLib g_unix_fd_add, SDL or a
 * Flutter embedder's poll): when it is readable, call
 * touchd_client_read_event until it returns 0.
 *
 *   touchd_client *c = touchd_client_new();
 *   touchd_client_connect(c, "/run/touchd/touchd.sock");
 *   touchd_client_subscribe(c, "gesture,device", NULL);
 *   touchd_event e;
 *   while (touchd_client_read_event(c, &e) > 0)   // blocking by default
 *       if (e.type == TOUCHD_GESTURE) printf("%s %s\n", e.kind, e.state);
 *   touchd_client_free(c);
 *
 * Requests return their id (> 0) at once; the answer arrives later as a
 * TOUCHD_ACK or TOUCHD_ERROR event carrying that id (error: the protocol's
 * code, e.g. "surface-exists"). Answers come in request order.
 *
 * Not thread-safe: use one client from one thread.
 */
#ifndef TOUCHD_CLIENT_H
#define TOUCHD_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TOUCHD_CLIENT_DEFAULT_SOCKET "/run/touchd/touchd.sock"

/* The kind of a server message. */
typedef enum touchd_event_type {
    TOUCHD_UNKNOWN = 0, /* a newer message type: see type_name and json */
    TOUCHD_HELLO,
    TOUCHD_ACK,
    TOUCHD_ERROR,
    TOUCHD_TOUCH,
    TOUCHD_GESTURE,
    TOUCHD_SYSTEM,
    TOUCHD_DEVICE,
    TOUCHD_OVERFLOW,
    TOUCHD_GOODBYE,
    TOUCHD_DRAG        /* a drag session's news for this client (semantics §12) */
} touchd_event_type;

typedef struct touchd_point {
    double x, y;
} touchd_point;

/* The most representations (perform) and types (entered) a drag event
 * carries parsed; the rest are in json. */
#define TOUCHD_DRAG_MAX_DATA 16

/* One representation of an item a drop delivered: item is its item's index. */
typedef struct touchd_drag_data {
    int64_t item;
    const char *type;
    const char *data;
} touchd_drag_data;

/* One server message, parsed. Only the fields of its type are set; absent
 * strings are NULL, absent integers -1, absent numbers NAN, absent points
 * {NAN, NAN}. Strings and json stay valid until the next
 * touchd_client_read_event or touchd_client_free. */
typedef struct touchd_event {
    touchd_event_type type;
    const char *type_name;   /* the message's "type" */
    const char *json;        /* the whole line, for fields not parsed here */
    size_t json_length;

    double time;             /* seconds: touch, gesture, system, device, overflow */
    int64_t device;          /* device id: touch, gesture, system, device */
    int64_t screen;          /* touch */

    /* touch */
    int64_t touch_id;        /* "id" of a touch */
    const char *phase;       /* began, moved, stationary, ended, cancelled, hover */
    const char *touch_type;  /* direct, indirect, stylus, ... */
    const char *tool;        /* finger, pen, eraser, ... */
    touchd_point location;   /* screen pixels */
    touchd_point location_mm;
    double force;

    /* gesture and system */
    const char *surface;
    const char *owner;
    const char *recognizer;
    const char *kind;        /* tap, pan, swipe, pinch, ... */
    const char *state;       /* began, changed, recognized, ended, cancelled, ... */
    const char *event;       /* system: edge-swipe, edge-hint, deferral, ... */
    const char *name;        /* system: a shortcut's name */
    const char *direction;   /* swipe */
    const char *edge;        /* system */
    int64_t touches;
    touchd_point translation;
    touchd_point velocity;
    double scale;
    double rotation;

    /* ack and error */
    int64_t id;              /* the request's numeric id; -1 when none */
    const char *code;        /* error: bad-field, unknown-surface, ... */
    const char *message;     /* error */

    /* device (the hello's device entry of the device) */
    const char *change;      /* added, removed, changed */
    const char *device_name;

    /* hello */
    int64_t protocol;
    const char *server;
    int64_t device_count;
    int64_t screen_count;

    /* overflow */
    int64_t lost;

    /* goodbye; drag "ended" too (lifted, touch-cancelled, source-gone, ...) */
    const char *reason;

    /* drag: "event" is items-requested, add-requested, entered, moved,
     * exited, perform or ended; surface and location are set too. */
    int64_t session;
    int64_t request;          /* items-requested, add-requested: answer with touchd_client_drag_items */
    int64_t item_count;       /* entered */
    const char *operation;    /* perform: copy or move */
    const char *outcome;      /* ended: copy, move or cancelled */
    size_t type_count;        /* entered: the items' types */
    const char *types[TOUCHD_DRAG_MAX_DATA];
    size_t data_count;        /* perform: the items' representations, in order */
    touchd_drag_data data[TOUCHD_DRAG_MAX_DATA];
} touchd_event;

typedef struct touchd_client touchd_client;

/* A client, not connected; NULL when out of memory. */
touchd_client *touchd_client_new(void);

/* Closes the connection and frees the client. */
void touchd_client_free(touchd_client *client);

/* Connects to the socket at path (NULL: TOUCHD_CLIENT_DEFAULT_SOCKET).
 * The hello is the first event read. 0 or -errno. */
int touchd_client_connect(touchd_client *client, const char *path);

/* Closes the connection (touchd removes the client's surfaces). */
void touchd_client_close(touchd_client *client);

/* The socket's descriptor for poll/select (-1 when not connected).
 * Readable: call touchd_client_read_event until it returns 0. While
 * touchd_client_wants_write is true, also wait for writable and call
 * touchd_client_flush. */
int touchd_client_fd(const touchd_client *client);

/* Nonblocking mode: read_event returns 0 instead of waiting, and requests
 * that do not fit the socket are kept and sent by touchd_client_flush.
 * Blocking (the default) waits. 0 or -errno. */
int touchd_client_set_nonblocking(touchd_client *client, bool nonblocking);

/* The next event: 1 with *event filled, 0 when none is complete yet
 * (nonblocking), -EPIPE when touchd closed the connection, -EBADMSG for a
 * line that is not a JSON object, other -errno on failure. */
int touchd_client_read_event(touchd_client *client, touchd_event *event);

/* Whether requests wait to be written (nonblocking mode). */
bool touchd_client_wants_write(const touchd_client *client);

/* Writes what requests left unwritten: 0 when all is written, 1 when some
 * is left (wait for writable), -errno. */
int touchd_client_flush(touchd_client *client);

/* Requests. Each returns its id (> 0), or -errno (-EINVAL for a bad
 * argument). The answer is a later TOUCHD_ACK or TOUCHD_ERROR event with
 * that id. */

/* Any request: fields_json is the request's other members as JSON object
 * members without braces (e.g. "\"intervalMs\":16"), or NULL. */
int64_t touchd_client_request(touchd_client *client, const char *op, const char *fields_json);

/* subscribe: streams is a comma-separated list (gesture,touch,system,
 * device,debug); kinds a comma-separated filter of gesture kinds, or NULL. */
int64_t touchd_client_subscribe(touchd_client *client, const char *streams, const char *kinds);

/* unsubscribe: from the comma-separated streams, or from everything (NULL). */
int64_t touchd_client_unsubscribe(touchd_client *client, const char *streams);

/* register and update a surface: its id, rectangle in screen pixels and
 * recognizers as a JSON array (e.g. "[{\"name\":\"tap\",\"kind\":\"tap\"}]"),
 * or NULL for none. */
int64_t touchd_client_register(touchd_client *client, const char *surface_id,
                               double x, double y, double width, double height,
                               const char *recognizers_json);
int64_t touchd_client_update(touchd_client *client, const char *surface_id,
                             double x, double y, double width, double height,
                             const char *recognizers_json);

/* unregister a surface. */
int64_t touchd_client_unregister(touchd_client *client, const char *surface_id);

/* coalesce continuous updates to at most one per interval_ms (0 to 100; 0: off). */
int64_t touchd_client_coalesce(touchd_client *client, double interval_ms);

/* ping */
int64_t touchd_client_ping(touchd_client *client);

/* Drag sessions (semantics §12, docs/protocol.md "Drag sessions"). */

/* drag-surface: what one of this client's surfaces does: its drags offer
 * items, its taps add items, it takes drops of drop_types (a comma-separated
 * list of MIME types such as "text/plain" or "image/ *" without the space,
 * or NULL). */
int64_t touchd_client_drag_surface(touchd_client *client, const char *surface_id,
                                   bool offers_items, bool adds_items, const char *drop_types);

/* drag-items: answers a TOUCHD_DRAG items-requested or add-requested (its
 * request) with items as a JSON array, e.g.
 * "[{\"representations\":[{\"type\":\"text/plain\",\"data\":\"Lyon\"}]}]";
 * "[]" declines. */
int64_t touchd_client_drag_items(touchd_client *client, int64_t request, const char *items_json);

/* drop-proposal: as the target under a session's touch, "copy", "move",
 * "forbidden" or "cancel"; the last one before the lift counts. */
int64_t touchd_client_drop_proposal(touchd_client *client, int64_t session, const char *operation);

#ifdef __cplusplus
}
#endif

#endif
