/* SPDX-License-Identifier: MIT */
/*
 * <linux/export.h> - EXPORT_SYMBOL() and friends.  Everything is one
 * program here: an export only checks that the symbol is declared.
 */
#ifndef DMAEMU_KERNEL_LINUX_EXPORT_H
#define DMAEMU_KERNEL_LINUX_EXPORT_H

#include <dmaemu/klevel.h>

#define EXPORT_SYMBOL(sym) extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym) extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL_FUTURE(sym) extern __typeof__(sym) sym
/* Linux 5.4's symbol namespaces: not at the 4.14 level (<dmaemu/klevel.h>). */
#if DMAEMU_KERNEL_LEVEL > 414
#define EXPORT_SYMBOL_NS(sym, ns) extern __typeof__(sym) sym
#define EXPORT_SYMBOL_NS_GPL(sym, ns) extern __typeof__(sym) sym
#endif
#define EXPORT_UNUSED_SYMBOL(sym) extern __typeof__(sym) sym
#define EXPORT_UNUSED_SYMBOL_GPL(sym) extern __typeof__(sym) sym

struct module;
#define THIS_MODULE ((struct module *)0)
#define KBUILD_MODNAME "dmaemu"

#endif
