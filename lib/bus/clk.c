// SPDX-License-Identifier: MIT
/*
 * clk.c - fixed, always-running clocks (<linux/clk.h>), counted as 4.14's
 * drivers/clk/clk.c counts them (clk_core_prepare(), clk_core_unprepare(),
 * clk_core_enable(), clk_core_disable()): the misuse 4.14 warns about is
 * reported at the driver's line.
 *
 * A clock is host memory owned by the caller of clk_get() until
 * clk_put(); its counts are atomics (clk_enable() and clk_disable() may
 * run in interrupt context, on another thread).  A magic word tells a
 * clock from other memory a driver passes by mistake.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/clk.h>
#include <linux/device.h>

#include "bus/bus.h"

#define CLK_MAGIC 0x636c6b21u /* "clk!" */

struct clk {
	unsigned int magic;
	struct dmaemu_machine *m;
	char name[48];
	unsigned int prepare_count; /* atomic */
	unsigned int enable_count;  /* atomic */
};

/* A live clock (false for NULL, the optional clock, without a report). */
static bool clk_usable(const char *fn, const struct clk *clk)
{
	if (!clk)
		return false;
	if (IS_ERR(clk) || clk->magic != CLK_MAGIC) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s(%p): %s",
				fn, (const void *)clk,
				IS_ERR(clk) ? "an error pointer, not a clock "
					      "(check clk_get()'s result with "
					      "IS_ERR())"
					    : "not a clock of clk_get()");
		return false;
	}
	return true;
}

static struct clk *clk_make(struct device *dev, const char *id, const char *fn)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct clk *clk;

	if (!m) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s, %s): %s", fn,
				dev ? dev_name(dev) : "NULL", id ? id : "NULL",
				dev ? "not a device of a machine"
				    : "a clock of no device (system clocks "
				      "are not emulated)");
		return ERR_PTR(-EINVAL);
	}
	clk = dmaemu__calloc(1, sizeof(*clk));
	if (!clk)
		return ERR_PTR(-ENOMEM);
	clk->magic = CLK_MAGIC;
	clk->m = m;
	snprintf(clk->name, sizeof(clk->name), "%s:%s", dev_name(dev),
		 id ? id : "");
	return clk;
}

static void clk_free(struct clk *clk)
{
	clk->magic = 0;
	dmaemu__free(clk);
}

struct clk *clk_get(struct device *dev, const char *id)
{
	DMAEMU__API_CALL(call, "clk_get");

	return clk_make(dev, id, "clk_get");
}

void clk_put(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_put");

	if (clk_usable("clk_put", clk))
		clk_free(clk);
}

static void devm_clk_release(struct device *dev, void *data)
{
	(void)dev;
	clk_free(data);
}

struct clk *devm_clk_get(struct device *dev, const char *id)
{
	DMAEMU__API_CALL(call, "devm_clk_get");
	struct clk *clk = clk_make(dev, id, "devm_clk_get");

	if (!IS_ERR(clk) && dmaemu__devres_add(dev, devm_clk_release, clk)) {
		clk_free(clk);
		return ERR_PTR(-ENOMEM);
	}
	return clk;
}

void devm_clk_put(struct device *dev, struct clk *clk)
{
	DMAEMU__API_CALL(call, "devm_clk_put");

	if (!clk_usable("devm_clk_put", clk))
		return;
	if (dmaemu__devres_release(dev, devm_clk_release, clk))
		dmaemu__reportf(clk->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"devm_clk_put(%s, %s): not a devm_clk_get() "
				"clock of this device",
				dev ? dev_name(dev) : "NULL", clk->name);
}

/* Decrement *@count unless it is 0; false when it was 0. */
static bool count_down(unsigned int *count)
{
	unsigned int v = __atomic_load_n(count, __ATOMIC_RELAXED);

	do {
		if (!v)
			return false;
	} while (!__atomic_compare_exchange_n(
		count, &v, v - 1, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	return true;
}

static int do_prepare(struct clk *clk)
{
	if (clk_usable("clk_prepare", clk))
		__atomic_add_fetch(&clk->prepare_count, 1, __ATOMIC_ACQ_REL);
	else if (clk)
		return -EINVAL;
	return 0;
}

static void do_unprepare(struct clk *clk, const char *fn)
{
	if (!clk_usable(fn, clk))
		return;
	if (!count_down(&clk->prepare_count))
		dmaemu__reportf(clk->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s): the clock is not prepared "
				"(unbalanced unprepare)",
				fn, clk->name);
}

static int do_enable(struct clk *clk, const char *fn)
{
	if (!clk)
		return 0;
	if (!clk_usable(fn, clk))
		return -EINVAL;
	if (!__atomic_load_n(&clk->prepare_count, __ATOMIC_ACQUIRE)) {
		dmaemu__reportf(clk->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s): the clock is not prepared "
				"(clk_prepare() first)",
				fn, clk->name);
		return -ESHUTDOWN;
	}
	__atomic_add_fetch(&clk->enable_count, 1, __ATOMIC_ACQ_REL);
	return 0;
}

static void do_disable(struct clk *clk, const char *fn)
{
	if (!clk_usable(fn, clk))
		return;
	if (!count_down(&clk->enable_count))
		dmaemu__reportf(clk->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s): the clock is not enabled "
				"(unbalanced disable)",
				fn, clk->name);
}

int clk_prepare(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_prepare");

	return do_prepare(clk);
}

void clk_unprepare(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_unprepare");

	do_unprepare(clk, "clk_unprepare");
}

int clk_enable(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_enable");

	return do_enable(clk, "clk_enable");
}

void clk_disable(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_disable");

	do_disable(clk, "clk_disable");
}

int clk_prepare_enable(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_prepare_enable");
	int err = do_prepare(clk);

	if (err)
		return err;
	err = do_enable(clk, "clk_prepare_enable");
	if (err)
		do_unprepare(clk, "clk_prepare_enable");
	return err;
}

void clk_disable_unprepare(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_disable_unprepare");

	do_disable(clk, "clk_disable_unprepare");
	do_unprepare(clk, "clk_disable_unprepare");
}

unsigned long clk_get_rate(struct clk *clk)
{
	DMAEMU__API_CALL(call, "clk_get_rate");

	return clk_usable("clk_get_rate", clk) ? DMAEMU_CLK_RATE : 0;
}

int clk_set_rate(struct clk *clk, unsigned long rate)
{
	DMAEMU__API_CALL(call, "clk_set_rate");

	(void)rate;
	if (!clk)
		return 0;
	return clk_usable("clk_set_rate", clk) ? 0 : -EINVAL;
}

long clk_round_rate(struct clk *clk, unsigned long rate)
{
	DMAEMU__API_CALL(call, "clk_round_rate");

	(void)rate;
	if (!clk)
		return 0;
	return clk_usable("clk_round_rate", clk) ? (long)DMAEMU_CLK_RATE
						 : -EINVAL;
}
