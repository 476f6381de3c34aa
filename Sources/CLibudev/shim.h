/* SPDX-License-Identifier: MIT */
#ifndef TOUCHD_CLIBUDEV_SHIM_H
#define TOUCHD_CLIBUDEV_SHIM_H
#include <libudev.h>
#endif
