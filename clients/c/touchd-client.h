/* SPDX-License-Identifier: MIT */
/* libtouchd-client 1: a C client for touchd, the Linux touch input daemon.
 *
 * Speaks touchd's socket protocol 1 (docs/protocol.md): JSON lines over a
 * Unix stream socket. The library parses each server line itself and hands
 * the caller one event at a time through accessors; the caller never parses
 * JSON. One file descriptor (touchd_client_fd) goes into the application's
 * own loop (Qt QSocketNotifier, GLib g_unix_fd_add, SDL or a Flutter
 * embedder's poll): when it is readable, call touchd_client_read_event until
 * it returns 0.
 *
 *   touchd_client *c = touchd_client_new();
 *   touchd_client_connect(c, NULL);
 *   touchd_client_subscribe(c, TOUCHD_STREAM_GESTURE | TOUCHD_STREAM_DEVICE, NULL);
 *   const touchd_event *e;
 *   while (touchd_client_read_event(c, &e) > 0)   // blocking by default
 *       if (touchd_event_get_type(e) == TOUCHD_GESTURE)
 *           printf("%s %s\n", touchd_event_get_kind(e), touchd_event_get_state(e));
 *   touchd_client_free(c);
 *
 * ABI: every type the library fills is opaque (libevdev's and libinput's
 * way), so fields and messages added to the protocol reach callers through
 * the generic accessors (touchd_event_get_string(e, "device.name"), ...)
 * without a new soname. Symbols are versioned (TOUCHD_CLIENT_1.0, ...); the
 * soname changes only when an existing function changes meaning (README.md,
 * "ABI").
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
    TOUCHD_UNKNOWN = 0, /* a newer message type: see touchd_event_get_type_name */
    TOUCHD_HELLO,
    TOUCHD_ACK,
    TOUCHD_ERROR,
    TOUCHD_TOUCH,
    TOUCHD_GESTURE,
    TOUCHD_SYSTEM,
    TOUCHD_DEVICE,
    TOUCHD_OVERFLOW,
    TOUCHD_GOODBYE,
    TOUCHD_DRAG,        /* a drag session's news for this client (1.1; semantics §12) */
    TOUCHD_MOTION       /* a touch's position for one of the client's frames (1.3; touchd_client_frames) */
} touchd_event_type;

/* The event streams of subscribe and unsubscribe, as flags. */
enum touchd_stream {
    TOUCHD_STREAM_GESTURE = 1u << 0,
    TOUCHD_STREAM_TOUCH = 1u << 1,
    TOUCHD_STREAM_SYSTEM = 1u << 2,
    TOUCHD_STREAM_DEVICE = 1u << 3,
    TOUCHD_STREAM_DEBUG = 1u << 4
};

/* A point in screen pixels or millimetres (a value the caller holds). */
typedef struct touchd_point {
    double x, y;
} touchd_point;

typedef struct touchd_client touchd_client;
/* One server message, owned by the client: valid until the next
 * touchd_client_read_event, touchd_client_reconnect or touchd_client_free. */
typedef struct touchd_event touchd_event;
/* A surface description for register and update, built by the caller. */
typedef struct touchd_surface touchd_surface;

/* --- the connection -------------------------------------------------------- */

/* A client, not connected; NULL when out of memory. */
touchd_client *touchd_client_new(void);

/* Closes the connection and frees the client. */
void touchd_client_free(touchd_client *client);

/* Connects to the socket at path (NULL: TOUCHD_CLIENT_DEFAULT_SOCKET).
 * The hello is the first event read. 0 or -errno. */
int touchd_client_connect(touchd_client *client, const char *path);

/* Connects again to the last path (after -EPIPE, say touchd restarted) and
 * sends again what this client set up: its subscriptions and unsubscriptions
 * in order, its coalescing interval and every surface it registered and did
 * not unregister (as updated last). The answers to these requests arrive as
 * events like any others. The hello is the first event read. 0 or -errno
 * (-ECONNREFUSED or -ENOENT while touchd is not there: call again later,
 * e.g. after touchd_client_reconnect_delay_ms). */
int touchd_client_reconnect(touchd_client *client);

/* A delay before reconnection attempt `attempt` (1, 2, ...): 100 ms doubling
 * to at most 2 s. */
unsigned touchd_client_reconnect_delay_ms(unsigned attempt);

/* Closes the connection (touchd removes the client's surfaces; the client
 * keeps them for touchd_client_reconnect). */
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

/* The next event: 1 with *event set, 0 when none is complete yet
 * (nonblocking), -EPIPE when touchd closed the connection, -EBADMSG for a
 * line that is not a JSON object (the next read goes on after it),
 * -EMSGSIZE for a line over 16 MiB, other -errno on failure. */
int touchd_client_read_event(touchd_client *client, const touchd_event **event);

/* Whether requests wait to be written (nonblocking mode). */
bool touchd_client_wants_write(const touchd_client *client);

/* Writes what requests left unwritten: 0 when all is written, 1 when some
 * is left (wait for writable), -errno. */
int touchd_client_flush(touchd_client *client);

/* --- events ------------------------------------------------------------------
 * Paths name a member of the message ("phase"), of an object in it
 * ("location.x", "device.name") or of an array element ("screens.0.width").
 * Absent members, or members of another JSON type, give NULL, false, NAN or
 * -1 as each accessor says. */

touchd_event_type touchd_event_get_type(const touchd_event *event);
/* The message's "type" ("touch", "gesture", or a newer one). */
const char *touchd_event_get_type_name(const touchd_event *event);
/* The whole line as touchd sent it (NUL-terminated; *length without it). */
const char *touchd_event_get_json(const touchd_event *event, size_t *length);

/* Whether the message has a member at path (of any JSON type, null too). */
bool touchd_event_has(const touchd_event *event, const char *path);
/* A string member, unescaped (UTF-8), or NULL. */
const char *touchd_event_get_string(const touchd_event *event, const char *path);
/* A number member: true with *value set, or false. */
bool touchd_event_get_number(const touchd_event *event, const char *path, double *value);
/* A number member that is an integer an int64_t holds: true with *value set. */
bool touchd_event_get_integer(const touchd_event *event, const char *path, int64_t *value);
/* A boolean member: true with *value set, or false. */
bool touchd_event_get_bool(const touchd_event *event, const char *path, bool *value);
/* An object member with numbers x and y: true with *point set. */
bool touchd_event_get_point(const touchd_event *event, const char *path, touchd_point *point);
/* The number of elements of an array member, or -1. */
int64_t touchd_event_get_array_length(const touchd_event *event, const char *path);

/* Every member, in the order of the line: objects and arrays, then their
 * members (paths "location", "location.x", "screens", "screens.0", ...).
 * Paths are valid as long as the event. */
size_t touchd_event_get_member_count(const touchd_event *event);
/* The path of member i (< touchd_event_get_member_count), or NULL. */
const char *touchd_event_get_member_path(const touchd_event *event, size_t i);

/* The common fields. Numbers: NAN when absent; integers: -1. */
double touchd_event_get_time(const touchd_event *event);      /* seconds */
int64_t touchd_event_get_device(const touchd_event *event);   /* "device", or a device message's "device.id" */
int64_t touchd_event_get_touch_id(const touchd_event *event); /* a touch message's "id" */
int64_t touchd_event_get_request_id(const touchd_event *event); /* an ack's or error's "id" */
const char *touchd_event_get_phase(const touchd_event *event);  /* began, moved, ended, cancelled, hover */
const char *touchd_event_get_kind(const touchd_event *event);   /* tap, pan, swipe, pinch, ... */
const char *touchd_event_get_state(const touchd_event *event);  /* began, changed, recognized, ... */
const char *touchd_event_get_recognizer(const touchd_event *event);
const char *touchd_event_get_surface(const touchd_event *event);
const char *touchd_event_get_error_code(const touchd_event *event); /* bad-field, unknown-surface, ... */
const char *touchd_event_get_error_message(const touchd_event *event);

/* --- requests -----------------------------------------------------------------
 * Each returns its id (> 0), or -errno (-EINVAL for a bad argument, nothing
 * sent). The answer is a later TOUCHD_ACK or TOUCHD_ERROR event with that id. */

/* subscribe to streams (TOUCHD_STREAM_* flags, at least one); kinds, a
 * NULL-terminated array of gesture kinds to keep, or NULL for all. */
int64_t touchd_client_subscribe(touchd_client *client, unsigned streams, const char *const *kinds);

/* unsubscribe from streams (TOUCHD_STREAM_* flags), or from all (0). */
int64_t touchd_client_unsubscribe(touchd_client *client, unsigned streams);

/* coalesce continuous updates to at most one per interval_ms (0 to 100; 0: off). */
int64_t touchd_client_coalesce(touchd_client *client, double interval_ms);

/* frames (1.3; docs/protocol.md, "frames"): the display shows a frame every
 * period_ms (1 to 1000; 0: stop), one of them at time (seconds, on the clock
 * of the events' "time"). touchd then sends a TOUCHD_MOTION event per touch
 * and frame: "time" (the frame's less 5 ms), "frame", "device", "id",
 * "touchType", "tool", "screen", "location", "sample" (real, interpolated,
 * extrapolated, held), "force", "altitude", "azimuth" when the touch has
 * them, and, when horizon_ms >= 0 (0 to 100), "predicted.time" and
 * "predicted.location": a guess that far past the newest report, never a
 * report. The touch events still come. touchd_client_reconnect sends it again. */
int64_t touchd_client_frames(touchd_client *client, double period_ms, double time, double horizon_ms);

/* ping */
int64_t touchd_client_ping(touchd_client *client);

/* register and update a surface built with touchd_surface_*. */
int64_t touchd_client_register_surface(touchd_client *client, const touchd_surface *surface);
int64_t touchd_client_update_surface(touchd_client *client, const touchd_surface *surface);

/* unregister a surface by its id. */
int64_t touchd_client_unregister_surface(touchd_client *client, const char *surface_id);

/* Drag sessions across clients (1.1; docs/protocol.md, "Drag sessions").
 * A TOUCHD_DRAG event's members: "event" (items-requested, add-requested,
 * entered, moved, exited, perform, ended), "session", "request",
 * "surface", "location", "types" and "itemCount" (entered), "operation"
 * and "items.N.representations.M.type" / ".data" (perform), "outcome" and
 * "reason" (ended). touchd_client_reconnect sends the drag roles again,
 * after the surfaces. */

/* drag-surface: what one of this client's surfaces does: its drags offer
 * items, its taps add items, it takes drops of drop_types (a
 * NULL-terminated array of MIME types, "type/subtype", "type/ *" without
 * the space, or NULL). */
int64_t touchd_client_drag_surface(touchd_client *client, const char *surface_id, bool offers_items,
                                   bool adds_items, const char *const *drop_types);

/* drag-surface with options (1.2): TOUCHD_DRAG_* flags or'd together;
 * TOUCHD_DRAG_COMPACT makes the surface's long presses alongside a drag wait
 * until the drag fails, at the lift for a touch held still (semantics §12.8). */
#define TOUCHD_DRAG_OFFERS_ITEMS 1u
#define TOUCHD_DRAG_ADDS_ITEMS 2u
#define TOUCHD_DRAG_COMPACT 4u
int64_t touchd_client_drag_surface_flags(touchd_client *client, const char *surface_id, unsigned flags,
                                         const char *const *drop_types);

/* drag-items: answers items-requested or add-requested (its "request")
 * with items as a JSON array, e.g.
 * [{"representations":[{"type":"text/plain","data":"Lyon"}]}]; "[]" declines. */
int64_t touchd_client_drag_items(touchd_client *client, int64_t request, const char *items_json);

/* drop-proposal: as the target under a session's touch, "copy", "move",
 * "forbidden" or "cancel"; the last one before the lift counts. */
int64_t touchd_client_drop_proposal(touchd_client *client, int64_t session, const char *operation);

/* Any request, for operations newer than this library: fields_json is the
 * request's other members as JSON object members without braces
 * (e.g. "\"intervalMs\":16"), or NULL. */
int64_t touchd_client_request(touchd_client *client, const char *op, const char *fields_json);

/* --- surfaces -----------------------------------------------------------------
 * A surface: its id, its rectangle in screen pixels, its members (z, parent,
 * hidden, deferEdges, ...: docs/protocol.md) and its recognizers, each with
 * a name, a kind and its parameters. Keys are the protocol's member names;
 * setting a key again replaces its value. Functions that can fail return 0
 * or -errno (-EINVAL: a bad key or value, -ENOENT: no recognizer of that
 * name, -ENOMEM). */

touchd_surface *touchd_surface_new(const char *id, double x, double y, double width, double height);
void touchd_surface_free(touchd_surface *surface);
int touchd_surface_set_rect(touchd_surface *surface, double x, double y, double width, double height);
int touchd_surface_set_number(touchd_surface *surface, const char *key, double value);
int touchd_surface_set_bool(touchd_surface *surface, const char *key, bool value);
int touchd_surface_set_string(touchd_surface *surface, const char *key, const char *value);
/* Appends value to the array of strings at key (e.g. "deferEdges"). */
int touchd_surface_add_string(touchd_surface *surface, const char *key, const char *value);

/* Adds a recognizer; its name is unique in the surface (-EEXIST). */
int touchd_surface_add_recognizer(touchd_surface *surface, const char *name, const char *kind);
int touchd_surface_set_recognizer_number(touchd_surface *surface, const char *name, const char *key, double value);
int touchd_surface_set_recognizer_bool(touchd_surface *surface, const char *name, const char *key, bool value);
int touchd_surface_set_recognizer_string(touchd_surface *surface, const char *name, const char *key,
                                         const char *value);
/* Appends value to the array of strings at key (e.g. "requireToFail"). */
int touchd_surface_add_recognizer_string(touchd_surface *surface, const char *name, const char *key,
                                         const char *value);

#ifdef __cplusplus
}
#endif

#endif
