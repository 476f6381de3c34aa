#ifndef TOUCHD_CSYSTEMCALLS_SHIM_H
#define TOUCHD_CSYSTEMCALLS_SHIM_H

#include <sys/socket.h>

/* glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is
   built without; they are in libc all the same. */
extern int pipe2(int pipefd[2], int flags);
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

#endif
