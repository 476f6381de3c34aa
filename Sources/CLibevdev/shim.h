#ifndef TOUCHD_CLIBEVDEV_SHIM_H
#define TOUCHD_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#endif
