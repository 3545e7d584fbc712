/* SPDX-License-Identifier: MIT */
/*
 * <linux/clk.h> - a device's clocks (Linux 4.14, include/linux/clk.h and
 * drivers/clk/clk.c), on a machine whose clocks are fixed and always
 * running, as a board's fixed-rate oscillators (drivers/clk/clk-fixed-rate.c).
 *
 * clk_get() and devm_clk_get() give each caller a clock object of the
 * device (any connection id): its rate is DMAEMU_CLK_RATE (100 MHz), its
 * parent none.  The clock's prepare and enable counts are kept as 4.14's
 * clock core keeps them, and what 4.14 warns about is reported
 * (bad-argument, at the driver's line): a clk_disable() of a clock that
 * is not enabled, a clk_unprepare() of one not prepared, a clk_enable()
 * of one not prepared (which fails, -ESHUTDOWN, as in 4.14).  A NULL
 * clock is 4.14's optional clock: every call on it succeeds and does
 * nothing.  clk_set_rate() of the fixed rate, or of any rate (the clock
 * cannot change, so 4.14 rounds to the current rate), succeeds and keeps
 * it; clk_round_rate() gives it.  devm_clk_get()'s clock is put when the
 * device is unbound.  A clock of no device, or an error pointer where a
 * clock is expected, is reported and fails.
 */
#ifndef DMAEMU_KERNEL_LINUX_CLK_H
#define DMAEMU_KERNEL_LINUX_CLK_H

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct device;
struct device_node;
/* A clock: opaque, as in 4.14. */
struct clk;

/* The rate of every clock of the emulated machines, in Hz. */
#define DMAEMU_CLK_RATE 100000000UL

struct clk *clk_get(struct device *dev, const char *id);
struct clk *devm_clk_get(struct device *dev, const char *id);
void clk_put(struct clk *clk);
void devm_clk_put(struct device *dev, struct clk *clk);
int clk_prepare(struct clk *clk);
void clk_unprepare(struct clk *clk);
int clk_enable(struct clk *clk);
void clk_disable(struct clk *clk);
/* clk_prepare() then clk_enable() (the prepare undone if enable fails). */
int clk_prepare_enable(struct clk *clk);
/* clk_disable() then clk_unprepare(). */
void clk_disable_unprepare(struct clk *clk);
unsigned long clk_get_rate(struct clk *clk);
int clk_set_rate(struct clk *clk, unsigned long rate);
long clk_round_rate(struct clk *clk, unsigned long rate);

/* A fixed clock has no parent. */
static inline struct clk *clk_get_parent(struct clk *clk)
{
	(void)clk;
	return NULL;
}

/* No device tree (<linux/of.h>): a node's clocks are not found. */
static inline struct clk *of_clk_get(struct device_node *np, int index)
{
	(void)np;
	(void)index;
	return ERR_PTR(-ENOENT);
}

static inline struct clk *of_clk_get_by_name(struct device_node *np,
					     const char *name)
{
	(void)np;
	(void)name;
	return ERR_PTR(-ENOENT);
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_CLK_H */
