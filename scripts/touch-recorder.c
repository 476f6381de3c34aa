/* SPDX-License-Identifier: MIT */
/*
 * touch-recorder: the "app" of the compositor tests (docs/pass-through.md,
 * "Testing under real compositors"). A Wayland client on libwayland-client
 * with one fullscreen xdg-shell surface that writes every wl_touch event it
 * receives as a JSON line, with the CLOCK_MONOTONIC time of its receipt:
 *
 *   {"ev":"down","id":0,"x":640.00,"y":360.00,"t":12345,"mono":17.123456}
 *   {"ev":"up","id":0,"t":12400,"mono":17.200001}
 *   {"ev":"motion",...} {"ev":"frame",...} {"ev":"cancel",...}
 *   {"ev":"configure","w":1280,"h":720} {"ev":"touch","bound":1}
 *   {"ev":"button","button":273,"state":1,"x":640.00,"y":360.00,"t":12500,"mono":17.3}
 *     (a wl_pointer button, at the pointer's last place on the surface;
 *      {"ev":"pointer","bound":1} when the seat gains a pointer,
 *      {"ev":"ptr-enter","x":..,"y":..} / {"ev":"ptr-leave"} as its focus comes and goes)
 *   {"ev":"key","key":183,"state":1,"t":12600,"mono":17.4}
 *     (a wl_keyboard key, the evdev code; {"ev":"keyboard","bound":1} when
 *      the seat gains a keyboard, {"ev":"kbd-enter"} / {"ev":"kbd-leave"}
 *      as the keyboard focus comes and goes)
 *
 * Why not wev: wev prints text meant for people, buffered on a pipe, and
 * not the time an event was received, which the latency bench needs.
 *
 * Usage: touch-recorder OUTPUT_FILE  (each line flushed at once)
 * Environment: TOUCH_RECORDER_APP_ID, the app id (default touch-recorder).
 * Build: scripts/compositor-test.sh (wayland-scanner for xdg-shell, cc).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static struct wl_seat *seat;
static struct wl_touch *touch;
static struct wl_pointer *pointer;
static struct wl_keyboard *keyboard;
static double pointer_x = -1, pointer_y = -1;
static struct wl_surface *surface;
static struct wl_buffer *buffer;
static int width = 640, height = 480, configured_w, configured_h;
static FILE *out;

static double mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every line is written and flushed in one go: the harness follows the file. */
#define EMIT(...) do { fprintf(out, __VA_ARGS__); fflush(out); } while (0)

static struct wl_buffer *make_buffer(int w, int h) {
    int stride = w * 4, size = stride * h;
    int fd = memfd_create("touch-recorder", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) { perror("memfd"); exit(1); }
    void *data = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) { perror("mmap"); exit(1); }
    memset(data, 0x40, (size_t)size);
    munmap(data, (size_t)size);
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w, h, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    return b;
}

static void touch_down(void *d, struct wl_touch *t, uint32_t serial, uint32_t time,
                       struct wl_surface *s, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)t; (void)serial; (void)s;
    double m = mono();
    EMIT("{\"ev\":\"down\",\"id\":%d,\"x\":%.2f,\"y\":%.2f,\"t\":%u,\"mono\":%.6f}\n", id,
         wl_fixed_to_double(x), wl_fixed_to_double(y), time, m);
}
static void touch_up(void *d, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
    (void)d; (void)t; (void)serial;
    double m = mono();
    EMIT("{\"ev\":\"up\",\"id\":%d,\"t\":%u,\"mono\":%.6f}\n", id, time, m);
}
static void touch_motion(void *d, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)t;
    double m = mono();
    EMIT("{\"ev\":\"motion\",\"id\":%d,\"x\":%.2f,\"y\":%.2f,\"t\":%u,\"mono\":%.6f}\n", id,
         wl_fixed_to_double(x), wl_fixed_to_double(y), time, m);
}
static void touch_frame(void *d, struct wl_touch *t) {
    (void)d; (void)t;
    double m = mono();
    EMIT("{\"ev\":\"frame\",\"mono\":%.6f}\n", m);
}
static void touch_cancel(void *d, struct wl_touch *t) {
    (void)d; (void)t;
    double m = mono();
    EMIT("{\"ev\":\"cancel\",\"mono\":%.6f}\n", m);
}
static const struct wl_touch_listener touch_listener = {
    .down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel,
};

static void pointer_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
                          wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)p; (void)serial; (void)s;
    pointer_x = wl_fixed_to_double(x);
    pointer_y = wl_fixed_to_double(y);
    EMIT("{\"ev\":\"ptr-enter\",\"x\":%.2f,\"y\":%.2f,\"mono\":%.6f}\n", pointer_x, pointer_y, mono());
}
static void pointer_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {
    (void)d; (void)p; (void)serial; (void)s;
    EMIT("{\"ev\":\"ptr-leave\",\"mono\":%.6f}\n", mono());
}
static void pointer_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)p; (void)time;
    pointer_x = wl_fixed_to_double(x);
    pointer_y = wl_fixed_to_double(y);
}
static void pointer_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    (void)d; (void)p; (void)serial;
    double m = mono();
    EMIT("{\"ev\":\"button\",\"button\":%u,\"state\":%u,\"x\":%.2f,\"y\":%.2f,\"t\":%u,\"mono\":%.6f}\n",
         button, state, pointer_x, pointer_y, time, m);
}
static void pointer_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)d; (void)p; (void)time; (void)axis; (void)value;
}
static void pointer_frame(void *d, struct wl_pointer *p) { (void)d; (void)p; }
static void pointer_axis_source(void *d, struct wl_pointer *p, uint32_t source) { (void)d; (void)p; (void)source; }
static void pointer_axis_stop(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis) {
    (void)d; (void)p; (void)time; (void)axis;
}
static void pointer_axis_discrete(void *d, struct wl_pointer *p, uint32_t axis, int32_t discrete) {
    (void)d; (void)p; (void)axis; (void)discrete;
}
/* Every event of wl_pointer version 5 has a handler: libwayland calls each without a check. */
static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion, .button = pointer_button,
    .axis = pointer_axis, .frame = pointer_frame, .axis_source = pointer_axis_source,
    .axis_stop = pointer_axis_stop, .axis_discrete = pointer_axis_discrete,
};

static void keyboard_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size) {
    (void)d; (void)k; (void)format; (void)size;
    close(fd);
}
static void keyboard_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
                           struct wl_array *keys) {
    (void)d; (void)k; (void)serial; (void)s; (void)keys;
    EMIT("{\"ev\":\"kbd-enter\",\"mono\":%.6f}\n", mono());
}
static void keyboard_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s) {
    (void)d; (void)k; (void)serial; (void)s;
    EMIT("{\"ev\":\"kbd-leave\",\"mono\":%.6f}\n", mono());
}
static void keyboard_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
                         uint32_t state) {
    (void)d; (void)k; (void)serial;
    double m = mono();
    EMIT("{\"ev\":\"key\",\"key\":%u,\"state\":%u,\"t\":%u,\"mono\":%.6f}\n", key, state, time, m);
}
static void keyboard_modifiers(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t depressed,
                               uint32_t latched, uint32_t locked, uint32_t group) {
    (void)d; (void)k; (void)serial; (void)depressed; (void)latched; (void)locked; (void)group;
}
static void keyboard_repeat_info(void *d, struct wl_keyboard *k, int32_t rate, int32_t delay) {
    (void)d; (void)k; (void)rate; (void)delay;
}
static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap, .enter = keyboard_enter, .leave = keyboard_leave, .key = keyboard_key,
    .modifiers = keyboard_modifiers, .repeat_info = keyboard_repeat_info,
};

static void seat_capabilities(void *d, struct wl_seat *s, uint32_t caps) {
    (void)d;
    int has_pointer = (caps & WL_SEAT_CAPABILITY_POINTER) != 0;
    if (has_pointer && !pointer) {
        pointer = wl_seat_get_pointer(s);
        wl_pointer_add_listener(pointer, &pointer_listener, NULL);
        EMIT("{\"ev\":\"pointer\",\"bound\":1,\"mono\":%.6f}\n", mono());
    } else if (!has_pointer && pointer) {
        wl_pointer_release(pointer);
        pointer = NULL;
        EMIT("{\"ev\":\"pointer\",\"bound\":0,\"mono\":%.6f}\n", mono());
    }
    int has_keyboard = (caps & WL_SEAT_CAPABILITY_KEYBOARD) != 0;
    if (has_keyboard && !keyboard) {
        keyboard = wl_seat_get_keyboard(s);
        wl_keyboard_add_listener(keyboard, &keyboard_listener, NULL);
        EMIT("{\"ev\":\"keyboard\",\"bound\":1,\"mono\":%.6f}\n", mono());
    } else if (!has_keyboard && keyboard) {
        wl_keyboard_release(keyboard);
        keyboard = NULL;
        EMIT("{\"ev\":\"keyboard\",\"bound\":0,\"mono\":%.6f}\n", mono());
    }
    int has = (caps & WL_SEAT_CAPABILITY_TOUCH) != 0;
    if (has && !touch) {
        touch = wl_seat_get_touch(s);
        wl_touch_add_listener(touch, &touch_listener, NULL);
        EMIT("{\"ev\":\"touch\",\"bound\":1,\"mono\":%.6f}\n", mono());
    } else if (!has && touch) {
        wl_touch_release(touch);
        touch = NULL;
        EMIT("{\"ev\":\"touch\",\"bound\":0,\"mono\":%.6f}\n", mono());
    }
}
static void seat_name(void *d, struct wl_seat *s, const char *name) { (void)d; (void)s; (void)name; }
static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

static void wm_ping(void *d, struct xdg_wm_base *b, uint32_t serial) { (void)d; xdg_wm_base_pong(b, serial); }
static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void xdg_surface_configure(void *d, struct xdg_surface *xs, uint32_t serial) {
    (void)d;
    xdg_surface_ack_configure(xs, serial);
    int w = configured_w > 0 ? configured_w : width, h = configured_h > 0 ? configured_h : height;
    if (!buffer || w != width || h != height) {
        if (buffer) wl_buffer_destroy(buffer);
        width = w; height = h;
        buffer = make_buffer(w, h);
        EMIT("{\"ev\":\"configure\",\"w\":%d,\"h\":%d,\"mono\":%.6f}\n", w, h, mono());
    }
    wl_surface_attach(surface, buffer, 0, 0);
    wl_surface_damage(surface, 0, 0, w, h);
    wl_surface_commit(surface);
}
static const struct xdg_surface_listener xdg_surface_listener = { xdg_surface_configure };

static void toplevel_configure(void *d, struct xdg_toplevel *t, int32_t w, int32_t h, struct wl_array *states) {
    (void)d; (void)t; (void)states;
    configured_w = w; configured_h = h;
}
static void toplevel_close(void *d, struct xdg_toplevel *t) { (void)d; (void)t; exit(0); }
static const struct xdg_toplevel_listener toplevel_listener = {
    .configure = toplevel_configure, .close = toplevel_close,
};

static void registry_global(void *d, struct wl_registry *r, uint32_t name, const char *iface, uint32_t version) {
    (void)d;
    if (!strcmp(iface, wl_compositor_interface.name)) {
        compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
    } else if (!strcmp(iface, wl_shm_interface.name)) {
        shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
    } else if (!strcmp(iface, xdg_wm_base_interface.name)) {
        wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
        xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);
    } else if (!strcmp(iface, wl_seat_interface.name) && !seat) {
        /* Version 5: wl_touch shape and orientation (6) and wl_pointer's axis_value120 (8) are not needed. */
        seat = wl_registry_bind(r, name, &wl_seat_interface, version < 5 ? version : 5);
        wl_seat_add_listener(seat, &seat_listener, NULL);
    }
}
static void registry_remove(void *d, struct wl_registry *r, uint32_t name) { (void)d; (void)r; (void)name; }
static const struct wl_registry_listener registry_listener = { registry_global, registry_remove };

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: touch-recorder OUTPUT_FILE\n"); return 2; }
    out = fopen(argv[1], "a");
    if (!out) { fprintf(stderr, "touch-recorder: %s: %s\n", argv[1], strerror(errno)); return 2; }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "touch-recorder: no Wayland display\n"); return 2; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !shm || !wm_base) { fprintf(stderr, "touch-recorder: compositor lacks globals\n"); return 2; }
    surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xs, &xdg_surface_listener, NULL);
    struct xdg_toplevel *top = xdg_surface_get_toplevel(xs);
    xdg_toplevel_add_listener(top, &toplevel_listener, NULL);
    const char *app_id = getenv("TOUCH_RECORDER_APP_ID");
    if (!app_id || !*app_id) app_id = "touch-recorder";
    xdg_toplevel_set_title(top, app_id);
    xdg_toplevel_set_app_id(top, app_id);
    xdg_toplevel_set_fullscreen(top, NULL);
    wl_surface_commit(surface);
    EMIT("{\"ev\":\"start\",\"mono\":%.6f}\n", mono());
    while (wl_display_dispatch(display) != -1) {}
    EMIT("{\"ev\":\"disconnected\",\"mono\":%.6f}\n", mono());
    return 0;
}
