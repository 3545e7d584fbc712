/* SPDX-License-Identifier: MIT */
/*
 * <linux/mii.h> - the MII library a network driver drives its PHY with
 * (Linux 4.14, include/linux/mii.h and drivers/net/mii.c).
 *
 * As 4.14's header, this is the UAPI header of that name (the MII_*
 * register numbers, BMCR_*, BMSR_*, ADVERTISE_*, LPA_*, struct
 * mii_ioctl_data), included first with #include_next, plus the kernel's
 * part: struct mii_if_info and the library's functions, which run over the
 * driver's own mdio_read()/mdio_write() callbacks exactly as 4.14's
 * drivers/net/mii.c does (a test gives the driver a fake PHY behind
 * those callbacks), and the inline helpers (mii_nway_result(),
 * mii_duplex(), the ethtool advertisement conversions, the flow-control
 * resolution).
 *
 * The ioctl numbers (SIOCGMIIPHY, SIOCGMIIREG, SIOCSMIIREG) come from the
 * UAPI <linux/sockios.h>.  struct ifreq (for if_mii()) is the C
 * library's, through <linux/netdevice.h>, as 4.14's mii.h has it through
 * <linux/if.h>.
 */
#ifndef DMAEMU_KERNEL_LINUX_MII_H
#define DMAEMU_KERNEL_LINUX_MII_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/types.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/mii.h>)
#include_next <linux/mii.h>
#endif
#if __has_include(<linux/sockios.h>)
#include <linux/sockios.h>
#endif
#endif

/* Without the host's UAPI half, only the include chain is given. */
#ifdef MII_BMCR

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;
struct ethtool_cmd;

/**
 * struct mii_if_info - a driver's MII interface (4.14).
 * @phy_id:       the PHY's address on the MDIO bus.
 * @advertising:  the last MII_ADVERTISE value the library wrote or read.
 * @phy_id_mask, @reg_num_mask: generic_mii_ioctl() masks the caller's
 *                PHY address and register number with them.
 * @full_duplex:  the duplex the library last found or set.
 * @force_media:  autonegotiation is off (speed and duplex forced).
 * @supports_gmii: the PHY has the 1000BASE-T registers.
 * @dev:          passed back to the callbacks.
 * @mdio_read, @mdio_write: the driver's access to the PHY's registers.
 */
struct mii_if_info {
	int phy_id;
	int advertising;
	int phy_id_mask;
	int reg_num_mask;

	unsigned int full_duplex : 1;
	unsigned int force_media : 1;
	unsigned int supports_gmii : 1;

	struct net_device *dev;
	int (*mdio_read)(struct net_device *dev, int phy_id, int location);
	void (*mdio_write)(struct net_device *dev, int phy_id, int location,
			   int val);
};

/*
 * The library (drivers/net/mii.c).  Each reads and writes the PHY only
 * through @mii's callbacks.  A NULL @mii, or one without callbacks, is a
 * bad-argument report: the call returns 0 (mii_link_ok(),
 * mii_check_gmii_support(), mii_check_media()) or -EINVAL, and
 * mii_check_link() does nothing.
 */
/* 1 when BMSR reports the link up (after the dummy read that latches). */
int mii_link_ok(struct mii_if_info *mii);
/* Sets BMCR_ANRESTART when autonegotiation is on; -EINVAL when it is off. */
int mii_nway_restart(struct mii_if_info *mii);
/* Fills @ecmd from BMCR, BMSR, ADVERTISE, LPA (and the 1000BASE-T pair). */
int mii_ethtool_gset(struct mii_if_info *mii, struct ethtool_cmd *ecmd);
/* Programs ADVERTISE and restarts autonegotiation, or forces BMCR. */
int mii_ethtool_sset(struct mii_if_info *mii, struct ethtool_cmd *ecmd);
/* The link-settings forms of the two (4.14's ethtool_link_ksettings). */
void mii_ethtool_get_link_ksettings(struct mii_if_info *mii,
				    struct ethtool_link_ksettings *cmd);
int mii_ethtool_set_link_ksettings(struct mii_if_info *mii,
				   const struct ethtool_link_ksettings *cmd);
/* 1 when BMSR has extended status and ESTATUS a 1000BASE-T mode. */
int mii_check_gmii_support(struct mii_if_info *mii);
/* netif_carrier_on()/off() when the link changed. */
void mii_check_link(struct mii_if_info *mii);
/* Carrier and duplex from the link and ADVERTISE & LPA; 1 when the
 * duplex changed (or @init_media). */
unsigned int mii_check_media(struct mii_if_info *mii, unsigned int ok_to_print,
			     unsigned int init_media);
/* SIOCGMIIPHY, SIOCGMIIREG, SIOCSMIIREG; -EOPNOTSUPP for the others. */
int generic_mii_ioctl(struct mii_if_info *mii_if,
		      struct mii_ioctl_data *mii_data, int cmd,
		      unsigned int *duplex_changed);

/** if_mii() - the MII ioctl data inside @rq (ndo_do_ioctl's request). */
static inline struct mii_ioctl_data *if_mii(struct ifreq *rq)
{
	return (struct mii_ioctl_data *)&rq->ifr_ifru;
}

/**
 * mii_nway_result() - the medium autonegotiation chose from @negotiated
 * (ADVERTISE & LPA), by IEEE 802.3u priority with 100BASE-T4 between the
 * two 100BASE-TX modes, as 4.14.
 */
static inline unsigned int mii_nway_result(unsigned int negotiated)
{
	if (negotiated & LPA_100FULL)
		return LPA_100FULL;
	if (negotiated & LPA_100BASE4)
		return LPA_100BASE4;
	if (negotiated & LPA_100HALF)
		return LPA_100HALF;
	if (negotiated & LPA_10FULL)
		return LPA_10FULL;
	return LPA_10HALF;
}

/** mii_duplex() - 1 when locked at full duplex or the result is full. */
static inline unsigned int mii_duplex(unsigned int duplex_lock,
				      unsigned int negotiated)
{
	return duplex_lock || (mii_nway_result(negotiated) & LPA_DUPLEX);
}

/** ethtool_adv_to_mii_adv_t() - ADVERTISED_* to MII_ADVERTISE bits. */
static inline u32 ethtool_adv_to_mii_adv_t(u32 ethadv)
{
	u32 r = 0;

	if (ethadv & ADVERTISED_10baseT_Half)
		r |= ADVERTISE_10HALF;
	if (ethadv & ADVERTISED_10baseT_Full)
		r |= ADVERTISE_10FULL;
	if (ethadv & ADVERTISED_100baseT_Half)
		r |= ADVERTISE_100HALF;
	if (ethadv & ADVERTISED_100baseT_Full)
		r |= ADVERTISE_100FULL;
	if (ethadv & ADVERTISED_Pause)
		r |= ADVERTISE_PAUSE_CAP;
	if (ethadv & ADVERTISED_Asym_Pause)
		r |= ADVERTISE_PAUSE_ASYM;
	return r;
}

/** mii_adv_to_ethtool_adv_t() - MII_ADVERTISE bits to ADVERTISED_*. */
static inline u32 mii_adv_to_ethtool_adv_t(u32 adv)
{
	u32 r = 0;

	if (adv & ADVERTISE_10HALF)
		r |= ADVERTISED_10baseT_Half;
	if (adv & ADVERTISE_10FULL)
		r |= ADVERTISED_10baseT_Full;
	if (adv & ADVERTISE_100HALF)
		r |= ADVERTISED_100baseT_Half;
	if (adv & ADVERTISE_100FULL)
		r |= ADVERTISED_100baseT_Full;
	if (adv & ADVERTISE_PAUSE_CAP)
		r |= ADVERTISED_Pause;
	if (adv & ADVERTISE_PAUSE_ASYM)
		r |= ADVERTISED_Asym_Pause;
	return r;
}

/** ethtool_adv_to_mii_ctrl1000_t() - ADVERTISED_* to MII_CTRL1000 bits. */
static inline u32 ethtool_adv_to_mii_ctrl1000_t(u32 ethadv)
{
	u32 r = 0;

	if (ethadv & ADVERTISED_1000baseT_Half)
		r |= ADVERTISE_1000HALF;
	if (ethadv & ADVERTISED_1000baseT_Full)
		r |= ADVERTISE_1000FULL;
	return r;
}

/** mii_ctrl1000_to_ethtool_adv_t() - MII_CTRL1000 bits to ADVERTISED_*. */
static inline u32 mii_ctrl1000_to_ethtool_adv_t(u32 adv)
{
	u32 r = 0;

	if (adv & ADVERTISE_1000HALF)
		r |= ADVERTISED_1000baseT_Half;
	if (adv & ADVERTISE_1000FULL)
		r |= ADVERTISED_1000baseT_Full;
	return r;
}

/** mii_lpa_to_ethtool_lpa_t() - MII_LPA bits to ADVERTISED_* (with
 * Autoneg for the acknowledge bit). */
static inline u32 mii_lpa_to_ethtool_lpa_t(u32 lpa)
{
	u32 r = 0;

	if (lpa & LPA_LPACK)
		r |= ADVERTISED_Autoneg;
	return r | mii_adv_to_ethtool_adv_t(lpa);
}

/** mii_stat1000_to_ethtool_lpa_t() - MII_STAT1000 bits to ADVERTISED_*. */
static inline u32 mii_stat1000_to_ethtool_lpa_t(u32 lpa)
{
	u32 r = 0;

	if (lpa & LPA_1000HALF)
		r |= ADVERTISED_1000baseT_Half;
	if (lpa & LPA_1000FULL)
		r |= ADVERTISED_1000baseT_Full;
	return r;
}

/** mii_advertise_flowctrl() - ADVERTISE pause bits for FLOW_CTRL_* @cap. */
static inline u16 mii_advertise_flowctrl(int cap)
{
	u16 adv = 0;

	if (cap & FLOW_CTRL_RX)
		adv = ADVERTISE_PAUSE_CAP | ADVERTISE_PAUSE_ASYM;
	if (cap & FLOW_CTRL_TX)
		adv ^= ADVERTISE_PAUSE_ASYM;
	return adv;
}

/**
 * mii_resolve_flowctrl_fdx() - the full-duplex pause result of local
 * @lcladv and remote @rmtadv (IEEE 802.3 table 28B-3): FLOW_CTRL_* bits.
 */
static inline u8 mii_resolve_flowctrl_fdx(u16 lcladv, u16 rmtadv)
{
	if (lcladv & rmtadv & ADVERTISE_PAUSE_CAP)
		return FLOW_CTRL_TX | FLOW_CTRL_RX;
	if (lcladv & rmtadv & ADVERTISE_PAUSE_ASYM) {
		if (lcladv & ADVERTISE_PAUSE_CAP)
			return FLOW_CTRL_RX;
		if (rmtadv & ADVERTISE_PAUSE_CAP)
			return FLOW_CTRL_TX;
	}
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* MII_BMCR */

#endif /* DMAEMU_KERNEL_LINUX_MII_H */
