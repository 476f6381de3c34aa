/* SPDX-License-Identifier: MIT */
/*
 * libinput-forward: libinput reading one device and forwarding what it
 * classifies to the clients of a Unix socket, one write per frame and
 * client, as a compositor built on libinput forwards input to its clients.
 * The comparison for touchd with a client in `make bench-vm`
 * (docs/performance.md, "The daemon in a guest"): `libinput debug-events`
 * prints to /dev/null and wakes nobody; touchd writes each frame into a
 * socket and wakes its reader. This does the same as touchd's side: a line
 * of text per event, formatted as `libinput debug-events` formats it, and
 * the lines of a frame sent in one `send` to each connected client.
 *
 * Usage: libinput-forward SOCKET DEVICE
 * A client gets `{"type":"hello"}` on connecting and `{"ok":true}` for
 * each line it sends (so `scripts/bench-tools.py clients` can talk to it).
 * A client that cannot take a frame at once loses that frame (counted, and
 * printed on stderr at the end with the frames and lines sent).
 * Build: cc -O2 -o libinput-forward libinput-forward.c -linput
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_CLIENTS 64

static int clients[MAX_CLIENTS];
static int client_count;
static char frame[1 << 16];
static size_t frame_length;
static unsigned long frames_sent, lines_sent, frames_dropped;
static volatile sig_atomic_t stop;

static int open_restricted(const char *path, int flags, void *data)
{
    (void)data;
    int fd = open(path, flags);
    return fd < 0 ? -errno : fd;
}

static void close_restricted(int fd, void *data)
{
    (void)data;
    close(fd);
}

static const struct libinput_interface interface = {
    .open_restricted = open_restricted,
    .close_restricted = close_restricted,
};

static void append(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(frame + frame_length, sizeof frame - frame_length, format, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof frame - frame_length)
        frame_length += (size_t)n;
}

static void send_frame(void)
{
    if (frame_length == 0)
        return;
    for (int i = 0; i < client_count; i++) {
        ssize_t n = send(clients[i], frame, frame_length, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n == (ssize_t)frame_length) {
            frames_sent++;
        } else {
            frames_dropped++;
        }
    }
    frame_length = 0;
}

static const char *type_name(enum libinput_event_type type)
{
    switch (type) {
    case LIBINPUT_EVENT_TOUCH_DOWN: return "TOUCH_DOWN";
    case LIBINPUT_EVENT_TOUCH_MOTION: return "TOUCH_MOTION";
    case LIBINPUT_EVENT_TOUCH_UP: return "TOUCH_UP";
    case LIBINPUT_EVENT_TOUCH_CANCEL: return "TOUCH_CANCEL";
    case LIBINPUT_EVENT_TOUCH_FRAME: return "TOUCH_FRAME";
    case LIBINPUT_EVENT_DEVICE_ADDED: return "DEVICE_ADDED";
    case LIBINPUT_EVENT_DEVICE_REMOVED: return "DEVICE_REMOVED";
    default: return "OTHER";
    }
}

static int is_touch(enum libinput_event_type type)
{
    return type == LIBINPUT_EVENT_TOUCH_DOWN || type == LIBINPUT_EVENT_TOUCH_MOTION || type == LIBINPUT_EVENT_TOUCH_UP ||
           type == LIBINPUT_EVENT_TOUCH_CANCEL || type == LIBINPUT_EVENT_TOUCH_FRAME;
}

/* One event as a line, the way `libinput debug-events` prints a touch. */
static void format_event(struct libinput_event *event, uint64_t start)
{
    enum libinput_event_type type = libinput_event_get_type(event);
    struct libinput_device *device = libinput_event_get_device(event);
    append("%-7s  %-24s", libinput_device_get_sysname(device), type_name(type));
    struct libinput_event_touch *t = is_touch(type) ? libinput_event_get_touch_event(event) : NULL;
    if (t) {
        uint64_t usec = libinput_event_touch_get_time_usec(t);
        append(" %+.3fs\t", (double)(usec - start) / 1e6);
        if (type != LIBINPUT_EVENT_TOUCH_FRAME)
            append("%d (%d)", libinput_event_touch_get_slot(t), libinput_event_touch_get_seat_slot(t));
        if (type == LIBINPUT_EVENT_TOUCH_DOWN || type == LIBINPUT_EVENT_TOUCH_MOTION) {
            append(" %5.2f/%5.2f (%5.2f/%5.2fmm)",
                   libinput_event_touch_get_x_transformed(t, 100), libinput_event_touch_get_y_transformed(t, 100),
                   libinput_event_touch_get_x(t), libinput_event_touch_get_y(t));
        }
    }
    append("\n");
    lines_sent++;
}

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SOCKET DEVICE\n", argv[0]);
        return 2;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (listener < 0 || strlen(argv[1]) >= sizeof address.sun_path) {
        fprintf(stderr, "libinput-forward: %s: cannot make a socket\n", argv[1]);
        return 1;
    }
    strcpy(address.sun_path, argv[1]);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 16) < 0) {
        fprintf(stderr, "libinput-forward: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }

    struct libinput *li = libinput_path_create_context(&interface, NULL);
    if (!li || !libinput_path_add_device(li, argv[2])) {
        fprintf(stderr, "libinput-forward: %s: libinput cannot open it\n", argv[2]);
        return 1;
    }

    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = libinput_get_fd(li) };
    epoll_ctl(ep, EPOLL_CTL_ADD, ev.data.fd, &ev);
    ev.data.fd = listener;
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);

    uint64_t start = 0;
    while (!stop) {
        struct epoll_event ready[8];
        int n = epoll_wait(ep, ready, 8, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < n; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int c = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (c < 0)
                    continue;
                if (client_count == MAX_CLIENTS) {
                    close(c);
                    continue;
                }
                clients[client_count++] = c;
                struct epoll_event cev = { .events = EPOLLIN, .data.fd = c };
                epoll_ctl(ep, EPOLL_CTL_ADD, c, &cev);
                static const char hello[] = "{\"type\":\"hello\"}\n";
                send(c, hello, sizeof hello - 1, MSG_NOSIGNAL);
            } else if (fd == libinput_get_fd(li)) {
                libinput_dispatch(li);
                struct libinput_event *event;
                while ((event = libinput_get_event(li))) {
                    enum libinput_event_type type = libinput_event_get_type(event);
                    struct libinput_event_touch *t = is_touch(type) ? libinput_event_get_touch_event(event) : NULL;
                    if (t && start == 0)
                        start = libinput_event_touch_get_time_usec(t);
                    format_event(event, start);
                    if (type == LIBINPUT_EVENT_TOUCH_FRAME || !t)
                        send_frame();
                    libinput_event_destroy(event);
                }
            } else {
                /* A client's requests: each line answered; end of file closes it. */
                char request[4096];
                ssize_t got = recv(fd, request, sizeof request, MSG_DONTWAIT);
                if (got > 0) {
                    for (ssize_t k = 0; k < got; k++) {
                        if (request[k] == '\n') {
                            static const char ok[] = "{\"ok\":true}\n";
                            send(fd, ok, sizeof ok - 1, MSG_NOSIGNAL);
                        }
                    }
                } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                    epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                    close(fd);
                    for (int k = 0; k < client_count; k++) {
                        if (clients[k] == fd) {
                            clients[k] = clients[--client_count];
                            break;
                        }
                    }
                }
            }
        }
    }
    fprintf(stderr, "libinput-forward: %lu frames sent, %lu lines, %lu frames dropped\n",
            frames_sent, lines_sent, frames_dropped);
    libinput_unref(li);
    unlink(argv[1]);
    return 0;
}
