/* SPDX-License-Identifier: MIT */
/*
 * cachesim.h - a standalone, deterministic CPU cache simulator.
 *
 * A simulator is a hierarchy of one to CACHESIM_MAX_LEVELS levels (L1 nearest
 * the CPU).  Each level has its own geometry (size, ways, line), replacement
 * policy and write policy.  Accesses go to L1; a miss at level N is looked up
 * at level N+1.  The hierarchy is non-inclusive/non-exclusive (as Dinero IV):
 * a fill allocates in every level that missed, an eviction at one level does
 * not touch the others, and a dirty victim written back from level N is
 * written into level N+1 (or to memory from the last level).  That
 * write-back is an ordinary write access of level N+1, counted in its
 * statistics (Dinero-style): it can miss there, allocate and evict.
 *
 * The library tracks tags, dirtiness and statistics only; it never holds
 * data.  Users that model data (dmaemu's lib/) register an eviction hook and
 * act on the line addresses it reports.
 *
 * Nothing here is thread-safe: one simulator is used by one thread at a time
 * (callers serialise with their own lock).
 */
#ifndef CACHESIM_H
#define CACHESIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CACHESIM_MAX_LEVELS 4
/* Address ranges a simulator can track line by line (cachesim_track()). */
#define CACHESIM_MAX_TRACK 4
/* Lines one tracked range may have at a level: 2^28 (16 GiB of 64-byte
 * lines), 32 MiB for each of its two maps. */
#define CACHESIM_TRACK_MAX_LINES (1ull << 28)

/** enum cachesim_policy - replacement policy of one level. */
enum cachesim_policy {
	CACHESIM_LRU = 0, /* least recently used */
	CACHESIM_PLRU,	  /* tree pseudo-LRU (ways must be a power of two) */
	CACHESIM_FIFO,	  /* first in, first out */
	CACHESIM_RANDOM,  /* seeded pseudo-random victim, reproducible */
};

/** enum cachesim_write_policy - write hit and write miss handling. */
enum cachesim_write_policy {
	CACHESIM_WB_WA = 0, /* write-back, write-allocate (default) */
	CACHESIM_WT_WA,	    /* write-through, write-allocate */
	CACHESIM_WT_NWA,    /* write-through, no-write-allocate */
};

/** enum cachesim_op - kind of an access. */
enum cachesim_op {
	CACHESIM_READ = 0,
	CACHESIM_WRITE,
	CACHESIM_IFETCH, /* counted as a read */
};

/**
 * struct cachesim_level_config - geometry and policies of one level.
 * @name:         printable name ("L1", "L2", ...); NULL gives "L<n>".
 * @size:         total capacity in bytes.
 * @ways:         associativity; 1 is direct-mapped, size/line is fully
 *                associative.
 * @line:         line size in bytes, a power of two >= 4.
 * @policy:       replacement policy.
 * @write_policy: write policy.
 * @hit_latency:  simulated cycles for a hit at this level.
 *
 * The number of sets (size / (ways * line)) must be a power of two.
 */
struct cachesim_level_config {
	const char *name;
	uint64_t size;
	unsigned int ways;
	unsigned int line;
	enum cachesim_policy policy;
	enum cachesim_write_policy write_policy;
	unsigned int hit_latency;
};

/**
 * struct cachesim_config - a whole hierarchy.
 * @nlevels:     number of levels in use, 1..CACHESIM_MAX_LEVELS.
 * @level:       per-level configuration, L1 first.
 * @seed:        seed for CACHESIM_RANDOM (same seed, same victims).
 * @mem_latency: simulated cycles for an access that misses every level, and
 *               for each write reaching memory.
 */
struct cachesim_config {
	unsigned int nlevels;
	struct cachesim_level_config level[CACHESIM_MAX_LEVELS];
	uint64_t seed;
	unsigned int mem_latency;
};

/**
 * struct cachesim_stats - counters of one level.
 *
 * An access that straddles two lines is one access (@accesses, @reads or
 * @writes count 1), and each line it touches is looked up: if any of them
 * misses, the access counts one miss; every line fetched is filled.
 * Accesses reaching level N+1 are the misses (and write-throughs) of level N,
 * plus its write-backs: one fetch per run of consecutive missed lines, one
 * write per write-through, one write per dirty victim.  Maintenance is not
 * an access: it counts in the maint_* fields only.
 */
struct cachesim_stats {
	uint64_t accesses; /* reads + writes */
	uint64_t reads;	   /* reads and instruction fetches */
	uint64_t writes;
	uint64_t hits;
	uint64_t misses; /* read_misses + write_misses */
	uint64_t read_misses;
	uint64_t write_misses;
	uint64_t compulsory_misses; /* first touch of a line ever */
	uint64_t writebacks;  /* dirty victims written down during the run */
	uint64_t evictions;   /* valid lines replaced to make room */
	uint64_t maint_ops;   /* clean/invalidate/flush calls */
	uint64_t maint_lines; /* resident lines those calls touched */
	uint64_t maint_writebacks; /* dirty lines those calls wrote back */
	uint64_t cycles;	   /* simulated cycles spent at this level */
};

/**
 * struct cachesim_line_info - state of one way of one set.
 * @valid: the way holds a line.
 * @dirty: the line has been written since it was filled (write-back levels).
 * @addr:  first byte address of the line (valid lines only).
 * @age:   replacement rank within the set: 0 is the next victim under the
 *         level's policy (for RANDOM, the way order), ways-1 the safest.
 */
struct cachesim_line_info {
	bool valid;
	bool dirty;
	uint64_t addr;
	unsigned int age;
};

struct cachesim;

/**
 * typedef cachesim_evict_fn - called when a valid line leaves a level.
 * @ctx:   the pointer given to cachesim_set_evict_hook().
 * @level: index of the level (0 = L1).
 * @addr:  first byte address of the line.
 * @dirty: the line was dirty (it is being written back).  An invalidate
 *         that discards a dirty line passes false: nothing is written.
 * @last:  @level is the last level: the line leaves the hierarchy's last
 *         level, and a dirty one reaches memory.
 *
 * Called for replacements and for maintenance (invalidate, flush).  A clean
 * maintenance operation that keeps the line calls it with @dirty true only
 * through cachesim_set_writeback_hook().  The hook must not call back into
 * the same simulator.
 */
typedef void (*cachesim_evict_fn)(void *ctx, unsigned int level, uint64_t addr,
				  bool dirty, bool last);

/**
 * typedef cachesim_writeback_fn - a dirty line is written back and kept
 * (clean operation).  Same arguments as cachesim_evict_fn.
 */
typedef void (*cachesim_writeback_fn)(void *ctx, unsigned int level,
				      uint64_t addr, bool last);

/**
 * cachesim_config_init() - fill @cfg with the defaults.
 * @cfg: configuration to fill.
 *
 * One level "L1": 32 KiB, 8 ways, 64-byte lines, LRU, write-back +
 * write-allocate, hit latency 4, memory latency 100, seed 1.
 */
void cachesim_config_init(struct cachesim_config *cfg);

/**
 * cachesim_config_check() - validate a configuration.
 * @cfg:    configuration.
 * @msg:    buffer for a one-line reason (may be NULL).
 * @msglen: size of @msg.
 *
 * Return: 0 when valid; -EINVAL with a message naming the level and the
 * impossible parameter otherwise.
 */
int cachesim_config_check(const struct cachesim_config *cfg, char *msg,
			  size_t msglen);

/**
 * cachesim_create() - build a simulator.
 * @cfg:    configuration (copied).
 * @msg:    buffer for a one-line reason on failure (may be NULL).
 * @msglen: size of @msg.
 *
 * Return: the simulator, or NULL with errno EINVAL (bad geometry; @msg says
 * which) or ENOMEM.
 */
struct cachesim *cachesim_create(const struct cachesim_config *cfg, char *msg,
				 size_t msglen);

/** cachesim_destroy() - free a simulator (NULL is ignored). */
void cachesim_destroy(struct cachesim *cs);

/** cachesim_reset() - empty every level and zero the statistics. */
void cachesim_reset(struct cachesim *cs);

/** cachesim_set_evict_hook() - register (or clear, with NULL) the hook. */
void cachesim_set_evict_hook(struct cachesim *cs, cachesim_evict_fn fn,
			     void *ctx);

/** cachesim_set_writeback_hook() - register (or clear) the clean hook. */
void cachesim_set_writeback_hook(struct cachesim *cs, cachesim_writeback_fn fn,
				 void *ctx);

/**
 * cachesim_access() - simulate one access.
 * @cs:   simulator.
 * @addr: byte address.
 * @size: bytes accessed (0 is treated as 1); may straddle lines.
 * @op:   read, write or instruction fetch.
 *
 * Cost: O(ways) per level looked up.
 *
 * Return: the index of the level that satisfied the access (0 = L1 hit),
 * or the number of levels when it went to memory.  For a straddling access,
 * the deepest level any of its lines reached.
 */
unsigned int cachesim_access(struct cachesim *cs, uint64_t addr,
			     unsigned int size, enum cachesim_op op);

/**
 * struct cachesim_req - one access of cachesim_access_many().
 * @addr: byte address.
 * @size: bytes accessed (0 is treated as 1); may straddle lines.
 * @op:   an enum cachesim_op (any value but CACHESIM_WRITE reads).
 */
struct cachesim_req {
	uint64_t addr;
	uint32_t size;
	uint32_t op;
};

/**
 * cachesim_access_many() - simulate @n accesses in order, exactly as @n
 * calls of cachesim_access() would, at a lower cost per access (one call,
 * the L1 hit inlined in the loop): for a replay that holds its accesses in
 * an array.
 */
void cachesim_access_many(struct cachesim *cs, const struct cachesim_req *reqs,
			  size_t n);

/**
 * cachesim_touch() - an L1 hit on the line of @addr that was already
 * counted elsewhere: the replacement state of L1 is updated as
 * cachesim_access() would update it (LRU, PLRU), the statistics are not.
 * Nothing when L1 does not hold the line.  A caller that counts hits
 * itself and replays them later keeps the victims exact by touching each
 * line once, in the order of its last hit: LRU and PLRU state depend on
 * nothing else.
 *
 * Cost: O(ways).
 */
void cachesim_touch(struct cachesim *cs, uint64_t addr);

/**
 * cachesim_clean() - write back dirty lines of [@addr, @addr + @len) in
 * every level, keeping them resident.
 * Return: number of resident lines touched (all levels).
 */
uint64_t cachesim_clean(struct cachesim *cs, uint64_t addr, uint64_t len);

/**
 * cachesim_invalidate() - drop lines of [@addr, @addr + @len) from every
 * level without writing them back (dirty data is discarded).
 * Return: number of resident lines touched (all levels).
 */
uint64_t cachesim_invalidate(struct cachesim *cs, uint64_t addr, uint64_t len);

/**
 * cachesim_clean_invalidate() - write back, then drop, the lines of
 * [@addr, @addr + @len) in every level.
 * Return: number of resident lines touched (all levels).
 */
uint64_t cachesim_clean_invalidate(struct cachesim *cs, uint64_t addr,
				   uint64_t len);

/**
 * cachesim_flush_all() - clean and invalidate every line of every level.
 * Return: number of lines touched.
 */
uint64_t cachesim_flush_all(struct cachesim *cs);

/**
 * cachesim_track() - keep, at every level, a map of the lines of
 * [@addr, @addr + @len) in address order: one bit per line saying it is
 * resident, one saying it is dirty.
 * @cs:   the simulator (it may already hold lines of the range).
 * @addr: first byte.
 * @len:  bytes (the lines covering them are tracked).
 *
 * What it changes is cost, never a result: a clean of the last level with
 * no clean hook (cachesim_clean() with cachesim_set_writeback_hook() unset,
 * the clean of a DMA map) of a range inside one tracked range is then a few
 * word operations per 64 lines instead of a search of each line's set.
 * Each map costs a bit per line (calloc()ed: pages never touched cost
 * nothing), and a fill, an eviction or a write of a tracked line sets or
 * clears its bits.
 *
 * Return: 0; -EINVAL for an empty range, one past the end of the address
 * space, or one overlapping a tracked range; -ENOSPC when
 * CACHESIM_MAX_TRACK ranges are tracked already; -E2BIG when the range has
 * more than CACHESIM_TRACK_MAX_LINES lines at some level; -ENOMEM.  On
 * error nothing changed.
 */
int cachesim_track(struct cachesim *cs, uint64_t addr, uint64_t len);

/** cachesim_levels() - number of levels. */
unsigned int cachesim_levels(const struct cachesim *cs);

/** cachesim_level_config() - the (normalised) configuration of @level. */
const struct cachesim_level_config *cachesim_level_config(
	const struct cachesim *cs, unsigned int level);

/** cachesim_resident() - is the line holding @addr present in @level? */
bool cachesim_resident(const struct cachesim *cs, unsigned int level,
		       uint64_t addr);

/** cachesim_dirty() - is the line holding @addr present and dirty in @level? */
bool cachesim_dirty(const struct cachesim *cs, unsigned int level,
		    uint64_t addr);

/**
 * cachesim_locate() - where @addr lives in @level.
 * @set: set index of @addr (always filled).
 * @way: way holding it (filled when resident).
 * Return: true when resident.
 */
bool cachesim_locate(const struct cachesim *cs, unsigned int level,
		     uint64_t addr, unsigned int *set, unsigned int *way);

/** cachesim_sets() - number of sets of @level. */
unsigned int cachesim_sets(const struct cachesim *cs, unsigned int level);

/**
 * cachesim_line() - state of way @way of set @set in @level.
 * Return: 0, or -EINVAL for an out-of-range level, set or way.
 */
int cachesim_line(const struct cachesim *cs, unsigned int level,
		  unsigned int set, unsigned int way,
		  struct cachesim_line_info *info);

/** cachesim_stats() - copy the counters of @level into @st. */
void cachesim_stats(const struct cachesim *cs, unsigned int level,
		    struct cachesim_stats *st);

/**
 * cachesim_dirty_any() - does @level hold a line of [@addr, @addr + @len)
 * dirty?  (@len 0: no.)  Cost: a lookup per line of the range, or one walk
 * of the level when the range has more lines than the level.
 */
bool cachesim_dirty_any(const struct cachesim *cs, unsigned int level,
			uint64_t addr, uint64_t len);

/**
 * cachesim_dirty_bits() - which of @n consecutive lines @level holds dirty,
 * read from a tracked range's map (cachesim_track()).
 * @addr: a byte of the first line.
 * @n:    lines, 1 to 64.
 * @bits: bit i set: line i holds dirty data (cachesim_dirty() of it).
 *
 * A few word operations, no search.  Return: true when all @n lines lie in
 * one tracked range of @level (*@bits is then set); false otherwise, with
 * *@bits untouched (ask cachesim_dirty() line by line).
 */
bool cachesim_dirty_bits(const struct cachesim *cs, unsigned int level,
			 uint64_t addr, unsigned int n, uint64_t *bits);

/** cachesim_dirty_lines() - dirty lines now resident in @level. */
uint64_t cachesim_dirty_lines(const struct cachesim *cs, unsigned int level);

/** cachesim_cycles() - total simulated cycles so far. */
uint64_t cachesim_cycles(const struct cachesim *cs);

/** cachesim_policy_name(), cachesim_write_policy_name() - printable names
 * ("lru", "plru", "fifo", "random"; "wb-wa", "wt-wa", "wt-nwa"). */
const char *cachesim_policy_name(enum cachesim_policy p);
const char *cachesim_write_policy_name(enum cachesim_write_policy p);

/** cachesim_parse_policy(), cachesim_parse_write_policy() - names back to
 * values.  Return: 0, or -EINVAL for an unknown name. */
int cachesim_parse_policy(const char *s, enum cachesim_policy *p);
int cachesim_parse_write_policy(const char *s, enum cachesim_write_policy *p);

/* What cachesim_parse_u64() accepts besides decimal digits. */
#define CACHESIM_PARSE_HEX 0x1u	   /* hex digits after a 0x or 0X prefix */
#define CACHESIM_PARSE_SUFFIX 0x2u /* a final k/m/g/t: times 2^10/20/30/40 */

/**
 * cachesim_parse_u64() - parse an unsigned number, the whole string.
 * @s:     the text: digits, then with CACHESIM_PARSE_SUFFIX an optional
 *         suffix letter (either case); no sign, no spaces.
 * @flags: CACHESIM_PARSE_HEX, CACHESIM_PARSE_SUFFIX.
 * @out:   receives the value; untouched on error.
 *
 * Return: 0; -EINVAL for a NULL, empty or malformed string; -ERANGE when
 * the value does not fit in 64 bits (checked before anything after the
 * digits).
 */
int cachesim_parse_u64(const char *s, unsigned int flags, uint64_t *out);

/**
 * cachesim_parse_size() - parse "32768", "32k", "32K", "1m", "2g":
 * cachesim_parse_u64() with CACHESIM_PARSE_SUFFIX.
 * Return: 0, or -EINVAL for a malformed or overflowing size.
 */
int cachesim_parse_size(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CACHESIM_H */
