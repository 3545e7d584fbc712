/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/dmaemu.h> - the whole public API of the emulator: machines and
 * their options, reports.  Kernel-personality headers (<linux/...>) are
 * included separately by driver code.
 */
#ifndef DMAEMU_DMAEMU_H
#define DMAEMU_DMAEMU_H

#include <dmaemu/fault.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/trace.h>

#endif
