/* SPDX-License-Identifier: MIT */
/*
 * <linux/ethtool.h> - a network driver's ethtool operations (Linux 4.14,
 * include/linux/ethtool.h, net/core/ethtool.c).
 *
 * As 4.14's header, this is the UAPI header of that name (struct
 * ethtool_cmd, ethtool_drvinfo, ethtool_wolinfo, ethtool_ringparam, ...,
 * SPEED_*, DUPLEX_*, PORT_*, AUTONEG_*, SUPPORTED_*, ADVERTISED_*,
 * ETHTOOL_*, ethtool_cmd_speed() and ethtool_cmd_speed_set()), included
 * first with #include_next, plus the kernel's part: struct ethtool_ops
 * with 4.14's slots, struct ethtool_link_ksettings and its link-mode
 * helpers, ethtool_op_get_link(), ethtool_op_get_ts_info(),
 * ethtool_rxfh_indir_default().  4.14's <linux/netdevice.h> includes it,
 * so a driver that fills dev->ethtool_ops needs no include of its own.
 *
 * Nothing calls the operations: there is no ethtool ioctl.  A test calls
 * them as the ethtool core would (dev->ethtool_ops->get_link(dev)).
 * The host's UAPI header is the kernel's own user-space half (Linux's
 * linux-libc-dev): without it only the operations are declared.
 */
#ifndef DMAEMU_KERNEL_LINUX_ETHTOOL_H
#define DMAEMU_KERNEL_LINUX_ETHTOOL_H

#include <string.h>

#include <linux/if_ether.h>
#include <linux/types.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/ethtool.h>)
#include_next <linux/ethtool.h>
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;
struct ethtool_cmd;
struct ethtool_drvinfo;
struct ethtool_regs;
struct ethtool_wolinfo;
struct ethtool_eeprom;
struct ethtool_coalesce;
struct ethtool_ringparam;
struct ethtool_pauseparam;
struct ethtool_test;
struct ethtool_stats;
struct ethtool_rxnfc;
struct ethtool_flash;
struct ethtool_channels;
struct ethtool_dump;
struct ethtool_ts_info;
struct ethtool_modinfo;
struct ethtool_eee;
struct ethtool_tunable;
struct ethtool_link_ksettings;

#ifdef _LINUX_ETHTOOL_H /* the UAPI half: struct ethtool_link_settings */
/* The link modes of 4.14's struct ethtool_link_ksettings (bitmaps). */
#define __ETHTOOL_DECLARE_LINK_MODE_MASK(name)                                 \
	unsigned long                                                          \
		name[(__ETHTOOL_LINK_MODE_MASK_NBITS + 8 * sizeof(long) - 1) / \
		     (8 * sizeof(long))]

/**
 * struct ethtool_link_ksettings - link settings (4.14): the UAPI @base
 * and the supported, advertised and link partner's modes.
 */
#if defined(__clang__)
#pragma clang diagnostic push
/* The UAPI's base ends in a flexible array (4.14's: a zero-length one). */
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif
struct ethtool_link_ksettings {
	struct ethtool_link_settings base;
	struct {
		__ETHTOOL_DECLARE_LINK_MODE_MASK(supported);
		__ETHTOOL_DECLARE_LINK_MODE_MASK(advertising);
		__ETHTOOL_DECLARE_LINK_MODE_MASK(lp_advertising);
	} link_modes;
};
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#define __ETHTOOL_LINK_MODE_WORD(nr) ((nr) / (8 * sizeof(long)))
#define __ETHTOOL_LINK_MODE_BIT(nr) (1UL << ((nr) % (8 * sizeof(long))))

/** ethtool_link_ksettings_zero_link_mode() - clear the mode mask @name. */
#define ethtool_link_ksettings_zero_link_mode(ptr, name) \
	memset((ptr)->link_modes.name, 0, sizeof((ptr)->link_modes.name))
/** ethtool_link_ksettings_add_link_mode() - set ETHTOOL_LINK_MODE_@mode. */
#define ethtool_link_ksettings_add_link_mode(ptr, name, mode) \
	((ptr)->link_modes.name[__ETHTOOL_LINK_MODE_WORD(     \
		 ETHTOOL_LINK_MODE_##mode##_BIT)] |=          \
	 __ETHTOOL_LINK_MODE_BIT(ETHTOOL_LINK_MODE_##mode##_BIT))
/** ethtool_link_ksettings_del_link_mode() - clear ETHTOOL_LINK_MODE_@mode. */
#define ethtool_link_ksettings_del_link_mode(ptr, name, mode) \
	((ptr)->link_modes.name[__ETHTOOL_LINK_MODE_WORD(     \
		 ETHTOOL_LINK_MODE_##mode##_BIT)] &=          \
	 ~__ETHTOOL_LINK_MODE_BIT(ETHTOOL_LINK_MODE_##mode##_BIT))
/** ethtool_link_ksettings_test_link_mode() - is ETHTOOL_LINK_MODE_@mode set. */
#define ethtool_link_ksettings_test_link_mode(ptr, name, mode) \
	(!!((ptr)->link_modes.name[__ETHTOOL_LINK_MODE_WORD(   \
		    ETHTOOL_LINK_MODE_##mode##_BIT)] &         \
	    __ETHTOOL_LINK_MODE_BIT(ETHTOOL_LINK_MODE_##mode##_BIT)))

/**
 * ethtool_convert_legacy_u32_to_link_mode() - the modes of a legacy
 * SUPPORTED_* / ADVERTISED_* word (its bits are the first 32 modes).
 */
static inline void ethtool_convert_legacy_u32_to_link_mode(unsigned long *dst,
							   u32 legacy_u32)
{
	memset(dst, 0,
	       sizeof(((struct ethtool_link_ksettings *)0)
			      ->link_modes.supported));
	dst[0] = legacy_u32;
}

/**
 * ethtool_convert_link_mode_to_legacy_u32() - the first 32 modes of @src
 * as a legacy word.  Return: false when @src has modes beyond them (they
 * are lost), true otherwise.
 */
static inline bool ethtool_convert_link_mode_to_legacy_u32(
	u32 *legacy_u32, const unsigned long *src)
{
	unsigned int nr;
	bool ok = true;

	for (nr = 32; nr < __ETHTOOL_LINK_MODE_MASK_NBITS; nr++)
		if (src[__ETHTOOL_LINK_MODE_WORD(nr)] &
		    __ETHTOOL_LINK_MODE_BIT(nr))
			ok = false;
	*legacy_u32 = (u32)src[0];
	return ok;
}

#endif /* _LINUX_ETHTOOL_H */

/* The LED states of set_phys_id. */
enum ethtool_phys_id_state {
	ETHTOOL_ID_INACTIVE,
	ETHTOOL_ID_ACTIVE,
	ETHTOOL_ID_ON,
	ETHTOOL_ID_OFF
};

/**
 * struct ethtool_ops - a driver's ethtool operations: 4.14's slots, in
 * 4.14's order.  Kept in dev->ethtool_ops; nothing calls them but a test.
 */
struct ethtool_ops {
	int (*get_settings)(struct net_device *, struct ethtool_cmd *);
	int (*set_settings)(struct net_device *, struct ethtool_cmd *);
	void (*get_drvinfo)(struct net_device *, struct ethtool_drvinfo *);
	int (*get_regs_len)(struct net_device *);
	void (*get_regs)(struct net_device *, struct ethtool_regs *, void *);
	void (*get_wol)(struct net_device *, struct ethtool_wolinfo *);
	int (*set_wol)(struct net_device *, struct ethtool_wolinfo *);
	u32 (*get_msglevel)(struct net_device *);
	void (*set_msglevel)(struct net_device *, u32);
	int (*nway_reset)(struct net_device *);
	u32 (*get_link)(struct net_device *);
	int (*get_eeprom_len)(struct net_device *);
	int (*get_eeprom)(struct net_device *, struct ethtool_eeprom *, u8 *);
	int (*set_eeprom)(struct net_device *, struct ethtool_eeprom *, u8 *);
	int (*get_coalesce)(struct net_device *, struct ethtool_coalesce *);
	int (*set_coalesce)(struct net_device *, struct ethtool_coalesce *);
	void (*get_ringparam)(struct net_device *, struct ethtool_ringparam *);
	int (*set_ringparam)(struct net_device *, struct ethtool_ringparam *);
	void (*get_pauseparam)(struct net_device *,
			       struct ethtool_pauseparam *);
	int (*set_pauseparam)(struct net_device *, struct ethtool_pauseparam *);
	void (*self_test)(struct net_device *, struct ethtool_test *, u64 *);
	void (*get_strings)(struct net_device *, u32 stringset, u8 *);
	int (*set_phys_id)(struct net_device *, enum ethtool_phys_id_state);
	void (*get_ethtool_stats)(struct net_device *, struct ethtool_stats *,
				  u64 *);
	int (*begin)(struct net_device *);
	void (*complete)(struct net_device *);
	u32 (*get_priv_flags)(struct net_device *);
	int (*set_priv_flags)(struct net_device *, u32);
	int (*get_sset_count)(struct net_device *, int);
	int (*get_rxnfc)(struct net_device *, struct ethtool_rxnfc *,
			 u32 *rule_locs);
	int (*set_rxnfc)(struct net_device *, struct ethtool_rxnfc *);
	int (*flash_device)(struct net_device *, struct ethtool_flash *);
	int (*reset)(struct net_device *, u32 *);
	u32 (*get_rxfh_key_size)(struct net_device *);
	u32 (*get_rxfh_indir_size)(struct net_device *);
	int (*get_rxfh)(struct net_device *, u32 *indir, u8 *key, u8 *hfunc);
	int (*set_rxfh)(struct net_device *, const u32 *indir, const u8 *key,
			const u8 hfunc);
	void (*get_channels)(struct net_device *, struct ethtool_channels *);
	int (*set_channels)(struct net_device *, struct ethtool_channels *);
	int (*get_dump_flag)(struct net_device *, struct ethtool_dump *);
	int (*get_dump_data)(struct net_device *, struct ethtool_dump *,
			     void *);
	int (*set_dump)(struct net_device *, struct ethtool_dump *);
	int (*get_ts_info)(struct net_device *, struct ethtool_ts_info *);
	int (*get_module_info)(struct net_device *, struct ethtool_modinfo *);
	int (*get_module_eeprom)(struct net_device *, struct ethtool_eeprom *,
				 u8 *);
	int (*get_eee)(struct net_device *, struct ethtool_eee *);
	int (*set_eee)(struct net_device *, struct ethtool_eee *);
	int (*get_tunable)(struct net_device *, const struct ethtool_tunable *,
			   void *);
	int (*set_tunable)(struct net_device *, const struct ethtool_tunable *,
			   const void *);
	int (*get_per_queue_coalesce)(struct net_device *, u32,
				      struct ethtool_coalesce *);
	int (*set_per_queue_coalesce)(struct net_device *, u32,
				      struct ethtool_coalesce *);
	int (*get_link_ksettings)(struct net_device *,
				  struct ethtool_link_ksettings *);
	int (*set_link_ksettings)(struct net_device *,
				  const struct ethtool_link_ksettings *);
};

/**
 * ethtool_op_get_link() - get_link for a driver that keeps the carrier
 * up to date: 1 while netif_carrier_ok(), else 0 (4.14's
 * net/core/ethtool.c).
 */
u32 ethtool_op_get_link(struct net_device *dev);

/**
 * ethtool_op_get_ts_info() - get_ts_info of a driver without hardware
 * time stamps: software TX and RX stamps, no PTP clock (phc_index -1),
 * as 4.14's net/core/ethtool.c.  Return: 0.
 */
int ethtool_op_get_ts_info(struct net_device *dev, struct ethtool_ts_info *eti);

/** ethtool_rxfh_indir_default() - the default RSS table entry @index. */
static inline u32 ethtool_rxfh_indir_default(u32 index, u32 n_rx_rings)
{
	return index % n_rx_rings;
}

#ifdef __cplusplus
}
#endif

#endif
