// SPDX-License-Identifier: MIT
/*
 * mii.c - the MII library (<linux/mii.h>), after 4.14's drivers/net/mii.c
 * (mii_link_ok(), mii_nway_restart(), mii_ethtool_gset(),
 * mii_ethtool_sset(), mii_ethtool_get_link_ksettings(),
 * mii_ethtool_set_link_ksettings(), mii_check_gmii_support(),
 * mii_check_link(), mii_check_media(), generic_mii_ioctl()).
 *
 * Every register access goes through the driver's mdio_read() and
 * mdio_write() callbacks, with the same reads, writes and order as 4.14:
 * a fake PHY behind the callbacks sees what a real PHY would.  The
 * callbacks run in the caller's context, with no lock of the library
 * held.  Bad arguments (a NULL interface or callback, a NULL settings or
 * ioctl structure) are reported as bad-argument and fail.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <linux/mii.h>
#include <linux/netdevice.h>

#include "net/net.h"

/* A usable interface, or a report naming @fn and the missing piece. */
static bool mii_usable(const char *fn, const struct mii_if_info *mii,
		       const void *arg, const char *argname)
{
	const char *why = NULL;

	if (!mii)
		why = "NULL mii_if_info";
	else if (!mii->mdio_read || !mii->mdio_write)
		why = "the mii_if_info has no mdio_read()/mdio_write() "
		      "callback (set both before the first call)";
	else if (argname && !arg)
		why = argname;
	if (!why)
		return true;
	dmaemu__reportf(mii && mii->dev ? dmaemu__netdev_machine(mii->dev)
					: dmaemu_machine_current(),
			DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s(%p): %s", fn,
			(const void *)mii, why);
	return false;
}

static int phy_rd(struct mii_if_info *mii, int reg)
{
	return mii->mdio_read(mii->dev, mii->phy_id, reg);
}

static void phy_wr(struct mii_if_info *mii, int reg, int val)
{
	mii->mdio_write(mii->dev, mii->phy_id, reg, val);
}

/* The ADVERTISED_* modes of an ADVERTISE or LPA register (4.14 counts the
 * acknowledge bit as Autoneg in both). */
static u32 an_modes(struct mii_if_info *mii, int reg)
{
	int v = phy_rd(mii, reg);
	u32 modes = mii_adv_to_ethtool_adv_t((u32)v) &
		    (ADVERTISED_10baseT_Half | ADVERTISED_10baseT_Full |
		     ADVERTISED_100baseT_Half | ADVERTISED_100baseT_Full);

	if (v & LPA_LPACK)
		modes |= ADVERTISED_Autoneg;
	return modes;
}

/* What 4.14's gset and get_link_ksettings both compute. */
struct mii_state {
	u32 supported, advertising, lp_advertising;
	u32 speed;
	u8 duplex, autoneg;
};

static void mii_read_state(struct mii_if_info *mii, struct mii_state *st)
{
	u16 bmcr, bmsr, ctrl1000 = 0, stat1000 = 0;
	u32 both;

	memset(st, 0, sizeof(*st));
	st->supported = SUPPORTED_10baseT_Half | SUPPORTED_10baseT_Full |
			SUPPORTED_100baseT_Half | SUPPORTED_100baseT_Full |
			SUPPORTED_Autoneg | SUPPORTED_TP | SUPPORTED_MII;
	if (mii->supports_gmii)
		st->supported |=
			SUPPORTED_1000baseT_Half | SUPPORTED_1000baseT_Full;
	st->advertising = ADVERTISED_TP | ADVERTISED_MII;

	bmcr = (u16)phy_rd(mii, MII_BMCR);
	bmsr = (u16)phy_rd(mii, MII_BMSR);
	if (mii->supports_gmii) {
		ctrl1000 = (u16)phy_rd(mii, MII_CTRL1000);
		stat1000 = (u16)phy_rd(mii, MII_STAT1000);
	}
	if (!(bmcr & BMCR_ANENABLE)) {
		st->autoneg = AUTONEG_DISABLE;
		if ((bmcr & BMCR_SPEED1000) && !(bmcr & BMCR_SPEED100))
			st->speed = SPEED_1000;
		else
			st->speed = bmcr & BMCR_SPEED100 ? SPEED_100 : SPEED_10;
		st->duplex = bmcr & BMCR_FULLDPLX ? DUPLEX_FULL : DUPLEX_HALF;
		mii->full_duplex = st->duplex;
		return;
	}
	st->autoneg = AUTONEG_ENABLE;
	st->advertising |= ADVERTISED_Autoneg | an_modes(mii, MII_ADVERTISE) |
			   mii_ctrl1000_to_ethtool_adv_t(ctrl1000);
	if (bmsr & BMSR_ANEGCOMPLETE)
		st->lp_advertising = an_modes(mii, MII_LPA) |
				     mii_stat1000_to_ethtool_lpa_t(stat1000);
	/* The best mode both ends advertise: the speed first. */
	both = st->advertising & st->lp_advertising;
	if (both & (ADVERTISED_1000baseT_Full | ADVERTISED_1000baseT_Half)) {
		st->speed = SPEED_1000;
		st->duplex = !!(both & ADVERTISED_1000baseT_Full);
	} else if (both &
		   (ADVERTISED_100baseT_Full | ADVERTISED_100baseT_Half)) {
		st->speed = SPEED_100;
		st->duplex = !!(both & ADVERTISED_100baseT_Full);
	} else {
		st->speed = SPEED_10;
		st->duplex = !!(both & ADVERTISED_10baseT_Full);
	}
	mii->full_duplex = st->duplex;
}

int mii_ethtool_gset(struct mii_if_info *mii, struct ethtool_cmd *ecmd)
{
	DMAEMU__API_CALL(call, "mii_ethtool_gset");
	struct mii_state st;

	if (!mii_usable("mii_ethtool_gset", mii, ecmd, "NULL ethtool_cmd"))
		return -EINVAL;
	mii_read_state(mii, &st);
	ecmd->supported = st.supported;
	ecmd->advertising = st.advertising;
	ecmd->lp_advertising = st.lp_advertising;
	ethtool_cmd_speed_set(ecmd, st.speed);
	ecmd->duplex = st.duplex;
	ecmd->autoneg = st.autoneg;
	ecmd->port = PORT_MII;
	ecmd->transceiver = XCVR_INTERNAL;
	ecmd->phy_address = (u8)mii->phy_id;
	ecmd->mdio_support = ETH_MDIO_SUPPORTS_C22;
	return 0;
}

void mii_ethtool_get_link_ksettings(struct mii_if_info *mii,
				    struct ethtool_link_ksettings *cmd)
{
	DMAEMU__API_CALL(call, "mii_ethtool_get_link_ksettings");
	struct mii_state st;

	if (!mii_usable("mii_ethtool_get_link_ksettings", mii, cmd,
			"NULL ethtool_link_ksettings"))
		return;
	mii_read_state(mii, &st);
	cmd->base.speed = st.speed;
	cmd->base.duplex = st.duplex;
	cmd->base.autoneg = st.autoneg;
	cmd->base.port = PORT_MII;
	cmd->base.phy_address = (u8)mii->phy_id;
	cmd->base.mdio_support = ETH_MDIO_SUPPORTS_C22;
	ethtool_convert_legacy_u32_to_link_mode(cmd->link_modes.supported,
						st.supported);
	ethtool_convert_legacy_u32_to_link_mode(cmd->link_modes.advertising,
						st.advertising);
	ethtool_convert_legacy_u32_to_link_mode(cmd->link_modes.lp_advertising,
						st.lp_advertising);
}

/* Program the PHY for the settings 4.14's sset and set_link_ksettings
 * both take, once they are checked. */
static void mii_apply(struct mii_if_info *mii, u32 speed, u8 duplex, u8 autoneg,
		      u32 advertising)
{
	int bmcr, want;

	if (autoneg == AUTONEG_ENABLE) {
		int adv = phy_rd(mii, MII_ADVERTISE), adv2 = 0;
		int nadv = adv & ~(ADVERTISE_ALL | ADVERTISE_100BASE4);
		int nadv2 = 0;

		if (mii->supports_gmii) {
			adv2 = phy_rd(mii, MII_CTRL1000);
			nadv2 = (adv2 &
				 ~(ADVERTISE_1000HALF | ADVERTISE_1000FULL)) |
				(int)ethtool_adv_to_mii_ctrl1000_t(advertising);
		}
		nadv |= (int)(ethtool_adv_to_mii_adv_t(advertising) &
			      ADVERTISE_ALL);
		if (adv != nadv) {
			phy_wr(mii, MII_ADVERTISE, nadv);
			mii->advertising = nadv;
		}
		if (mii->supports_gmii && adv2 != nadv2)
			phy_wr(mii, MII_CTRL1000, nadv2);
		bmcr = phy_rd(mii, MII_BMCR);
		phy_wr(mii, MII_BMCR, bmcr | BMCR_ANENABLE | BMCR_ANRESTART);
		mii->force_media = 0;
		return;
	}
	bmcr = phy_rd(mii, MII_BMCR);
	want = bmcr & ~(BMCR_ANENABLE | BMCR_SPEED100 | BMCR_SPEED1000 |
			BMCR_FULLDPLX);
	if (speed == SPEED_1000)
		want |= BMCR_SPEED1000;
	else if (speed == SPEED_100)
		want |= BMCR_SPEED100;
	if (duplex == DUPLEX_FULL)
		want |= BMCR_FULLDPLX;
	mii->full_duplex = duplex == DUPLEX_FULL;
	if (want != bmcr)
		phy_wr(mii, MII_BMCR, want);
	mii->force_media = 1;
}

/* 4.14's checks, common to both setters; 0 or -EINVAL. */
static int mii_settings_ok(const struct mii_if_info *mii, u32 speed, u8 duplex,
			   u8 port, u8 phy_address, u8 autoneg, u32 advertising)
{
	const u32 any = ADVERTISED_10baseT_Half | ADVERTISED_10baseT_Full |
			ADVERTISED_100baseT_Half | ADVERTISED_100baseT_Full |
			ADVERTISED_1000baseT_Half | ADVERTISED_1000baseT_Full;

	if (speed != SPEED_10 && speed != SPEED_100 && speed != SPEED_1000)
		return -EINVAL;
	if (duplex != DUPLEX_HALF && duplex != DUPLEX_FULL)
		return -EINVAL;
	if (port != PORT_MII || phy_address != mii->phy_id)
		return -EINVAL;
	if (autoneg != AUTONEG_DISABLE && autoneg != AUTONEG_ENABLE)
		return -EINVAL;
	if (speed == SPEED_1000 && !mii->supports_gmii)
		return -EINVAL;
	if (autoneg == AUTONEG_ENABLE && !(advertising & any))
		return -EINVAL;
	return 0;
}

int mii_ethtool_sset(struct mii_if_info *mii, struct ethtool_cmd *ecmd)
{
	DMAEMU__API_CALL(call, "mii_ethtool_sset");
	u32 speed;
	int err;

	if (!mii_usable("mii_ethtool_sset", mii, ecmd, "NULL ethtool_cmd"))
		return -EINVAL;
	speed = ethtool_cmd_speed(ecmd);
	if (ecmd->transceiver != XCVR_INTERNAL)
		return -EINVAL;
	err = mii_settings_ok(mii, speed, ecmd->duplex, ecmd->port,
			      ecmd->phy_address, ecmd->autoneg,
			      ecmd->advertising);
	if (err)
		return err;
	mii_apply(mii, speed, ecmd->duplex, ecmd->autoneg, ecmd->advertising);
	return 0;
}

int mii_ethtool_set_link_ksettings(struct mii_if_info *mii,
				   const struct ethtool_link_ksettings *cmd)
{
	DMAEMU__API_CALL(call, "mii_ethtool_set_link_ksettings");
	u32 advertising = 0;
	int err;

	if (!mii_usable("mii_ethtool_set_link_ksettings", mii, cmd,
			"NULL ethtool_link_ksettings"))
		return -EINVAL;
	(void)ethtool_convert_link_mode_to_legacy_u32(
		&advertising, cmd->link_modes.advertising);
	err = mii_settings_ok(mii, cmd->base.speed, cmd->base.duplex,
			      cmd->base.port, cmd->base.phy_address,
			      cmd->base.autoneg, advertising);
	if (err)
		return err;
	mii_apply(mii, cmd->base.speed, cmd->base.duplex, cmd->base.autoneg,
		  advertising);
	return 0;
}

int mii_check_gmii_support(struct mii_if_info *mii)
{
	DMAEMU__API_CALL(call, "mii_check_gmii_support");

	if (!mii_usable("mii_check_gmii_support", mii, NULL, NULL))
		return 0;
	if (!(phy_rd(mii, MII_BMSR) & BMSR_ESTATEN))
		return 0;
	return !!(phy_rd(mii, MII_ESTATUS) &
		  (ESTATUS_1000_TFULL | ESTATUS_1000_THALF));
}

/* BMSR's link bit latches low: the first read clears a past drop, the
 * second gives the state now. */
static int link_up(struct mii_if_info *mii)
{
	(void)phy_rd(mii, MII_BMSR);
	return !!(phy_rd(mii, MII_BMSR) & BMSR_LSTATUS);
}

int mii_link_ok(struct mii_if_info *mii)
{
	DMAEMU__API_CALL(call, "mii_link_ok");

	if (!mii_usable("mii_link_ok", mii, NULL, NULL))
		return 0;
	return link_up(mii);
}

int mii_nway_restart(struct mii_if_info *mii)
{
	DMAEMU__API_CALL(call, "mii_nway_restart");
	int bmcr;

	if (!mii_usable("mii_nway_restart", mii, NULL, NULL))
		return -EINVAL;
	bmcr = phy_rd(mii, MII_BMCR);
	if (!(bmcr & BMCR_ANENABLE))
		return -EINVAL; /* autonegotiation is off */
	phy_wr(mii, MII_BMCR, bmcr | BMCR_ANRESTART);
	return 0;
}

void mii_check_link(struct mii_if_info *mii)
{
	DMAEMU__API_CALL(call, "mii_check_link");
	int now, before;

	if (!mii_usable("mii_check_link", mii, mii ? mii->dev : NULL,
			"no net_device in the mii_if_info"))
		return;
	now = link_up(mii);
	before = netif_carrier_ok(mii->dev);
	if (now && !before)
		netif_carrier_on(mii->dev);
	else if (!now && before)
		netif_carrier_off(mii->dev);
}

unsigned int mii_check_media(struct mii_if_info *mii, unsigned int ok_to_print,
			     unsigned int init_media)
{
	DMAEMU__API_CALL(call, "mii_check_media");
	unsigned int had, has, media, duplex;
	int adv, lpa, lpa2 = 0;

	if (!mii_usable("mii_check_media", mii, mii ? mii->dev : NULL,
			"no net_device in the mii_if_info"))
		return 0;
	if (mii->force_media)
		return 0;
	had = netif_carrier_ok(mii->dev) ? 1 : 0;
	has = (unsigned int)link_up(mii);
	if (!init_media && had == has)
		return 0;
	if (!has) {
		netif_carrier_off(mii->dev);
		if (ok_to_print)
			netdev_info(mii->dev, "link down\n");
		return 0;
	}
	netif_carrier_on(mii->dev);
	if (!init_media && mii->advertising) {
		adv = mii->advertising;
	} else {
		adv = phy_rd(mii, MII_ADVERTISE);
		mii->advertising = adv;
	}
	lpa = phy_rd(mii, MII_LPA);
	if (mii->supports_gmii)
		lpa2 = phy_rd(mii, MII_STAT1000);
	media = mii_nway_result((unsigned int)(lpa & adv));
	duplex = (media & ADVERTISE_FULL) || (lpa2 & LPA_1000FULL) ? 1 : 0;
	if (ok_to_print)
		netdev_info(
			mii->dev, "link up, %uMbps, %s-duplex, lpa 0x%04X\n",
			lpa2 & (LPA_1000FULL | LPA_1000HALF) ? 1000u
			: media & (ADVERTISE_100FULL | ADVERTISE_100HALF) ? 100u
									  : 10u,
			duplex ? "full" : "half", (unsigned int)lpa);
	if (init_media || mii->full_duplex != duplex) {
		mii->full_duplex = duplex;
		return 1;
	}
	return 0;
}

int generic_mii_ioctl(struct mii_if_info *mii_if,
		      struct mii_ioctl_data *mii_data, int cmd,
		      unsigned int *duplex_changed)
{
	DMAEMU__API_CALL(call, "generic_mii_ioctl");
	unsigned int changed = 0;
	u16 val;

	if (duplex_changed)
		*duplex_changed = 0;
	if (!mii_usable("generic_mii_ioctl", mii_if, mii_data,
			"NULL mii_ioctl_data"))
		return -EINVAL;
	mii_data->phy_id &= (u16)mii_if->phy_id_mask;
	mii_data->reg_num &= (u16)mii_if->reg_num_mask;
	switch (cmd) {
	case SIOCGMIIPHY:
	case SIOCGMIIREG:
		/* SIOCGMIIPHY also reads the register asked for. */
		if (cmd == SIOCGMIIPHY)
			mii_data->phy_id = (u16)mii_if->phy_id;
		mii_data->val_out = (u16)mii_if->mdio_read(
			mii_if->dev, mii_data->phy_id, mii_data->reg_num);
		break;
	case SIOCSMIIREG:
		val = mii_data->val_in;
		if (mii_data->phy_id == mii_if->phy_id) {
			if (mii_data->reg_num == MII_BMCR) {
				unsigned int fdx;

				mii_if->force_media =
					!(val & (BMCR_RESET | BMCR_ANENABLE));
				fdx = mii_if->force_media &&
				      (val & BMCR_FULLDPLX);
				if (mii_if->full_duplex != fdx) {
					changed = 1;
					mii_if->full_duplex = fdx;
				}
			} else if (mii_data->reg_num == MII_ADVERTISE) {
				mii_if->advertising = val;
			}
		}
		mii_if->mdio_write(mii_if->dev, mii_data->phy_id,
				   mii_data->reg_num, val);
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (duplex_changed)
		*duplex_changed = changed;
	return 0;
}
