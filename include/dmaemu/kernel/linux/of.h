/* SPDX-License-Identifier: MIT */
/*
 * <linux/of.h> - the device tree, on a machine that has none (Linux
 * 4.14, include/linux/of.h built without CONFIG_OF).
 *
 * The emulated machines describe their devices in the test, not in a
 * device tree: every device's of_node is NULL and there is no tree to
 * look in.  This header is therefore 4.14's !CONFIG_OF half: struct
 * device_node and struct property exist (a driver may hold the pointer),
 * and every query answers "absent" as 4.14's stubs do: a lookup gives
 * NULL, a property read -ENOSYS, a test false, of_match_ptr() NULL (so a
 * driver's match table is not used; platform drivers match by name).  A
 * driver that needs a property to probe fails its probe as it would on
 * such a kernel; its test passes the values another way (platform data).
 */
#ifndef DMAEMU_KERNEL_LINUX_OF_H
#define DMAEMU_KERNEL_LINUX_OF_H

#include <stdbool.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef u32 phandle;

/** struct property - a node's property (4.14's fields; none exist). */
struct property {
	char *name;
	int length;
	void *value;
	struct property *next;
};

/** struct device_node - a device-tree node (4.14's fields; none exist). */
struct device_node {
	const char *name;
	const char *type;
	phandle phandle;
	const char *full_name;
	struct property *properties;
	struct device_node *parent;
	struct device_node *child;
	struct device_node *sibling;
	unsigned long _flags;
	void *data;
};

#define MAX_PHANDLE_ARGS 16
/** struct of_phandle_args - a parsed phandle reference (never filled). */
struct of_phandle_args {
	struct device_node *np;
	int args_count;
	uint32_t args[MAX_PHANDLE_ARGS];
};

/* No device tree: the match table pointer of a driver is NULL. */
#define of_match_ptr(ptr) NULL

static inline struct device_node *of_node_get(struct device_node *node)
{
	return node;
}

static inline void of_node_put(struct device_node *node)
{
	(void)node;
}

static inline bool of_have_populated_dt(void)
{
	return false;
}

static inline const char *of_node_full_name(const struct device_node *np)
{
	(void)np;
	return "<no-node>";
}

static inline struct property *of_find_property(const struct device_node *np,
						const char *name, int *lenp)
{
	(void)np;
	(void)name;
	(void)lenp;
	return NULL;
}

static inline const void *of_get_property(const struct device_node *node,
					  const char *name, int *lenp)
{
	(void)node;
	(void)name;
	(void)lenp;
	return NULL;
}

static inline bool of_property_read_bool(const struct device_node *np,
					 const char *propname)
{
	(void)np;
	(void)propname;
	return false;
}

static inline int of_property_read_u8_array(const struct device_node *np,
					    const char *propname, u8 *out,
					    size_t sz)
{
	(void)np;
	(void)propname;
	(void)out;
	(void)sz;
	return -ENOSYS;
}

static inline int of_property_read_u16_array(const struct device_node *np,
					     const char *propname, u16 *out,
					     size_t sz)
{
	(void)np;
	(void)propname;
	(void)out;
	(void)sz;
	return -ENOSYS;
}

static inline int of_property_read_u32_array(const struct device_node *np,
					     const char *propname, u32 *out,
					     size_t sz)
{
	(void)np;
	(void)propname;
	(void)out;
	(void)sz;
	return -ENOSYS;
}

static inline int of_property_read_u64_array(const struct device_node *np,
					     const char *propname, u64 *out,
					     size_t sz)
{
	(void)np;
	(void)propname;
	(void)out;
	(void)sz;
	return -ENOSYS;
}

static inline int of_property_read_u32(const struct device_node *np,
				       const char *propname, u32 *out)
{
	return of_property_read_u32_array(np, propname, out, 1);
}

static inline int of_property_read_u64(const struct device_node *np,
				       const char *propname, u64 *out)
{
	return of_property_read_u64_array(np, propname, out, 1);
}

static inline int of_property_read_u32_index(const struct device_node *np,
					     const char *propname, u32 index,
					     u32 *out)
{
	(void)index;
	return of_property_read_u32_array(np, propname, out, 1);
}

static inline int of_property_read_string(const struct device_node *np,
					  const char *propname,
					  const char **out)
{
	(void)np;
	(void)propname;
	(void)out;
	return -ENOSYS;
}

static inline int of_property_match_string(const struct device_node *np,
					   const char *propname,
					   const char *string)
{
	(void)np;
	(void)propname;
	(void)string;
	return -ENOSYS;
}

static inline int of_property_count_elems_of_size(const struct device_node *np,
						  const char *propname,
						  int elem_size)
{
	(void)np;
	(void)propname;
	(void)elem_size;
	return -ENOSYS;
}

static inline int of_device_is_compatible(const struct device_node *device,
					  const char *name)
{
	(void)device;
	(void)name;
	return 0;
}

static inline bool of_device_is_available(const struct device_node *device)
{
	(void)device;
	return false;
}

static inline int of_machine_is_compatible(const char *compat)
{
	(void)compat;
	return 0;
}

static inline struct device_node *of_get_parent(const struct device_node *node)
{
	(void)node;
	return NULL;
}

static inline struct device_node *of_get_next_child(
	const struct device_node *node, struct device_node *prev)
{
	(void)node;
	(void)prev;
	return NULL;
}

static inline struct device_node *of_get_next_available_child(
	const struct device_node *node, struct device_node *prev)
{
	(void)node;
	(void)prev;
	return NULL;
}

#define for_each_child_of_node(parent, child)                \
	for (child = of_get_next_child(parent, NULL); child; \
	     child = of_get_next_child(parent, child))
#define for_each_available_child_of_node(parent, child)                \
	for (child = of_get_next_available_child(parent, NULL); child; \
	     child = of_get_next_available_child(parent, child))

static inline struct device_node *of_get_child_by_name(
	const struct device_node *node, const char *name)
{
	(void)node;
	(void)name;
	return NULL;
}

static inline struct device_node *of_find_compatible_node(
	struct device_node *from, const char *type, const char *compat)
{
	(void)from;
	(void)type;
	(void)compat;
	return NULL;
}

static inline struct device_node *of_find_node_by_name(struct device_node *from,
						       const char *name)
{
	(void)from;
	(void)name;
	return NULL;
}

static inline const struct of_device_id *of_match_node(
	const struct of_device_id *matches, const struct device_node *node)
{
	(void)matches;
	(void)node;
	return NULL;
}

static inline struct device_node *of_parse_phandle(const struct device_node *np,
						   const char *phandle_name,
						   int index)
{
	(void)np;
	(void)phandle_name;
	(void)index;
	return NULL;
}

static inline int of_parse_phandle_with_args(const struct device_node *np,
					     const char *list_name,
					     const char *cells_name, int index,
					     struct of_phandle_args *out_args)
{
	(void)np;
	(void)list_name;
	(void)cells_name;
	(void)index;
	(void)out_args;
	return -ENOSYS;
}

static inline int of_alias_get_id(struct device_node *np, const char *stem)
{
	(void)np;
	(void)stem;
	return -ENOSYS;
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_OF_H */
