/* SPDX-License-Identifier: MIT */
#ifndef TOUCHD_CSYSTEMCALLS_SHIM_H
#define TOUCHD_CSYSTEMCALLS_SHIM_H

#include <sys/socket.h>
#include <unistd.h>

/* glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is
   built without; they are in libc all the same. */
extern int pipe2(int pipefd[2], int flags);
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
/* MFD_CLOEXEC is 1 (linux/memfd.h): the pass-through mirror's handover across a restart. */
extern int memfd_create(const char *name, unsigned int flags);

/* One message with file descriptors (SCM_RIGHTS) on a Unix socket: the
   pass-through guard receives touchd's grabbed devices and mirrors. Returns
   sendmsg's result (-1 with errno). */
#include <string.h>
static inline long touchd_send_with_fds(int sock, const void *data, unsigned long len, const int *fds, int nfds) {
    struct iovec iov = { (void *)data, len };
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int) * 8)]; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    memset(&control, 0, sizeof control);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (nfds > 0) {
        if (nfds > 8) nfds = 8;
        msg.msg_control = control.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * (unsigned)nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (unsigned)nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (unsigned)nfds);
    }
    return sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Receives one message and up to `maxfds` descriptors (close-on-exec) into
   `fds`, their count into `nfds`. Returns recvmsg's result. */
static inline long touchd_recv_with_fds(int sock, void *data, unsigned long len, int *fds, int maxfds, int *nfds) {
    struct iovec iov = { data, len };
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int) * 8)]; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    *nfds = 0;
    long n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *in = (int *)CMSG_DATA(c);
        for (int i = 0; i < count; i++) {
            if (*nfds < maxfds) fds[(*nfds)++] = in[i];
            else close(in[i]);
        }
    }
    return n;
}

#endif
