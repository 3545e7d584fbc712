/* SPDX-License-Identifier: MIT */
/*
 * <linux/list.h> - circular doubly linked lists (struct list_head) and
 * lists with single-pointer heads (struct hlist_head), as the kernel's.
 *
 * A list is a struct list_head that points to itself when empty; entries
 * embed a struct list_head and are found from it with list_entry().  A
 * deleted entry's pointers are set to LIST_POISON1/2, so that using it
 * again faults at once instead of corrupting the list.  Nothing here
 * locks: the caller protects a shared list, as in the kernel.
 */
#ifndef DMAEMU_KERNEL_LINUX_LIST_H
#define DMAEMU_KERNEL_LINUX_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>

/* Addresses no mapping of the process holds. */
#define LIST_POISON1 ((void *)0x100)
#define LIST_POISON2 ((void *)0x200)

#define LIST_HEAD_INIT(name)     \
	{                        \
		&(name), &(name) \
	}
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	list->prev = list;
}

static inline void __list_add(struct list_head *entry, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	WRITE_ONCE(prev->next, entry);
}

/* @entry after @head (a stack). */
static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__list_add(entry, head, head->next);
}

/* @entry before @head (a queue). */
static inline void list_add_tail(struct list_head *entry,
				 struct list_head *head)
{
	__list_add(entry, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = (struct list_head *)LIST_POISON1;
	entry->prev = (struct list_head *)LIST_POISON2;
}

static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline void list_replace(struct list_head *old, struct list_head *entry)
{
	entry->next = old->next;
	entry->next->prev = entry;
	entry->prev = old->prev;
	entry->prev->next = entry;
}

static inline void list_replace_init(struct list_head *old,
				     struct list_head *entry)
{
	list_replace(old, entry);
	INIT_LIST_HEAD(old);
}

static inline void list_move(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add(entry, head);
}

static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

static inline int list_is_last(const struct list_head *entry,
			       const struct list_head *head)
{
	return entry->next == head;
}

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline int list_empty_careful(const struct list_head *head)
{
	struct list_head *next = head->next;

	return next == head && next == head->prev;
}

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static inline void list_rotate_left(struct list_head *head)
{
	if (!list_empty(head))
		list_move_tail(head->next, head);
}

/* Put the entries of @list between @prev and @next. */
static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev, struct list_head *next)
{
	struct list_head *first = list->next, *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

static inline void list_splice(const struct list_head *list,
			       struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head, head->next);
}

static inline void list_splice_tail(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head->prev, head);
}

static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head->prev, head);
		INIT_LIST_HEAD(list);
	}
}

/*
 * Move the entries of @head up to and including @entry to @list (which
 * is overwritten).
 */
static inline void list_cut_position(struct list_head *list,
				     struct list_head *head,
				     struct list_head *entry)
{
	struct list_head *first = head->next;

	if (list_empty(head) ||
	    (list_is_singular(head) && head->next != entry && head != entry))
		return;
	if (entry == head) {
		INIT_LIST_HEAD(list);
		return;
	}
	list->next = first;
	first->prev = list;
	list->prev = entry;
	head->next = entry->next;
	entry->next->prev = head;
	entry->next = list;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member)                       \
	__extension__({                                                   \
		struct list_head *__head = (ptr);                         \
		struct list_head *__pos = READ_ONCE(__head->next);        \
		__pos != __head ? list_entry(__pos, type, member) : NULL; \
	})
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_prev(pos, head) \
	for (pos = (head)->prev; pos != (head); pos = pos->prev)
#define list_for_each_safe(pos, n, head)                       \
	for (pos = (head)->next, n = pos->next; pos != (head); \
	     pos = n, n = pos->next)
#define list_for_each_prev_safe(pos, n, head)                  \
	for (pos = (head)->prev, n = pos->prev; pos != (head); \
	     pos = n, n = pos->prev)
#define list_for_each_entry(pos, head, member)                       \
	for (pos = list_first_entry(head, __typeof__(*pos), member); \
	     &pos->member != (head); pos = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)              \
	for (pos = list_last_entry(head, __typeof__(*pos), member); \
	     &pos->member != (head); pos = list_prev_entry(pos, member))
#define list_for_each_entry_continue(pos, head, member)                  \
	for (pos = list_next_entry(pos, member); &pos->member != (head); \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_from(pos, head, member) \
	for (; &pos->member != (head); pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)               \
	for (pos = list_first_entry(head, __typeof__(*pos), member), \
	    n = list_next_entry(pos, member);                        \
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_reverse(pos, n, head, member)      \
	for (pos = list_last_entry(head, __typeof__(*pos), member), \
	    n = list_prev_entry(pos, member);                       \
	     &pos->member != (head); pos = n, n = list_prev_entry(n, member))
#define list_prepare_entry(pos, head, member) \
	((pos) ?: list_entry(head, __typeof__(*pos), member))

/* ---- hlist: a list whose head is one pointer ---- */

#define HLIST_HEAD_INIT       \
	{                     \
		.first = NULL \
	}
#define HLIST_HEAD(name) struct hlist_head name = {.first = NULL}
#define INIT_HLIST_HEAD(ptr) ((ptr)->first = NULL)

static inline void INIT_HLIST_NODE(struct hlist_node *h)
{
	h->next = NULL;
	h->pprev = NULL;
}

static inline int hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

static inline int hlist_empty(const struct hlist_head *h)
{
	return !READ_ONCE(h->first);
}

static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		next->pprev = pprev;
}

static inline void hlist_del(struct hlist_node *n)
{
	__hlist_del(n);
	n->next = (struct hlist_node *)LIST_POISON1;
	n->pprev = (struct hlist_node **)LIST_POISON2;
}

static inline void hlist_del_init(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		INIT_HLIST_NODE(n);
	}
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	WRITE_ONCE(h->first, n);
	n->pprev = &h->first;
}

static inline void hlist_add_before(struct hlist_node *n,
				    struct hlist_node *next)
{
	n->pprev = next->pprev;
	n->next = next;
	next->pprev = &n->next;
	WRITE_ONCE(*(n->pprev), n);
}

static inline void hlist_add_behind(struct hlist_node *n,
				    struct hlist_node *prev)
{
	n->next = prev->next;
	WRITE_ONCE(prev->next, n);
	n->pprev = &prev->next;
	if (n->next)
		n->next->pprev = &n->next;
}

#define hlist_entry(ptr, type, member) container_of(ptr, type, member)
#define hlist_entry_safe(ptr, type, member)                          \
	__extension__({                                              \
		__typeof__(ptr) ____ptr = (ptr);                     \
		____ptr ? hlist_entry(____ptr, type, member) : NULL; \
	})
#define hlist_for_each(pos, head) \
	for (pos = (head)->first; pos; pos = pos->next)
#define hlist_for_each_safe(pos, n, head)                \
	for (pos = (head)->first; pos && ({              \
					  n = pos->next; \
					  1;             \
				  });                    \
	     pos = n)
#define hlist_for_each_entry(pos, head, member)                        \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), \
				    member);                           \
	     pos; pos = hlist_entry_safe((pos)->member.next,           \
					 __typeof__(*(pos)), member))
#define hlist_for_each_entry_safe(pos, n, head, member)                       \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member); \
	     pos && ({                                                        \
		     n = pos->member.next;                                    \
		     1;                                                       \
	     });                                                              \
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))

#endif
