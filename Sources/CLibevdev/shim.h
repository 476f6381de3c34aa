/* SPDX-License-Identifier: MIT */
#ifndef TOUCHD_CLIBEVDEV_SHIM_H
#define TOUCHD_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/* UI_SET_PHYS on an open /dev/uinput before UI_DEV_CREATE: libevdev's
 * uinput creation never sets phys (libevdev_set_phys only changes its own
 * copy), and Swift cannot call the variadic ioctl. 0, or -1 with errno. */
static inline int touchd_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}
#endif
