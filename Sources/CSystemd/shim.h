/* SPDX-License-Identifier: MIT */
#ifndef TOUCHD_CSYSTEMD_SHIM_H
#define TOUCHD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>
#endif
